package weft.runtime

/**
 * The time weft's timers count: monotonic nanoseconds, of which only differences mean anything.
 * Every time read inside weft (a ticker's schedule, a task's next start, a rate limiter's window,
 * a memcached deadline) goes through the [[AsyncSupport.clock]] of the support in use, so that a
 * test kit's virtual time (`weft-testkit`) is the only time its fibers see.
 */
trait Clock:

  /** Monotonic nanoseconds; only differences mean anything. */
  def nanoTime(): Long

/** The clocks. */
object Clock:

  /** The JVM's `System.nanoTime`. */
  val system: Clock = () => System.nanoTime()
