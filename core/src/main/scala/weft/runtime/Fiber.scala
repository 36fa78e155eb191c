package weft.runtime

import java.util.concurrent.locks.LockSupport

/**
 * A running computation: on the JVM, a (usually virtual) thread.
 *
 * This is the only type through which the layers above `weft.runtime` refer to threads, so that a
 * runtime without `java.lang.Thread` (Scala Native, a continuation scheduler) can be added by
 * replacing this package only.
 */
opaque type Fiber = Thread

/** Operations on [[Fiber]]s. */
object Fiber:

  /** The fiber of a JVM thread (runtime layer only). */
  inline def ofThread(t: Thread): Fiber = t

  /** The fiber running the caller. */
  inline def current: Fiber = Thread.currentThread()

  /**
   * Parks the current fiber until [[unpark]], an interrupt, or spuriously. A member of a
   * [[FiberDomain]] is counted as waiting meanwhile.
   */
  def park(blocker: AnyRef): Unit = FiberDomain.park(blocker, -1L)

  /** Parks the current fiber for at most `nanos` (>= 0) nanoseconds, as [[park]] does. */
  def parkNanos(blocker: AnyRef, nanos: Long): Unit = FiberDomain.park(blocker, math.max(0L, nanos))

  /**
   * Runs `body`, a JDK call that waits on the world outside the process (a socket read, an
   * accept), and returns its value. Outside a [[FiberDomain]] it only runs `body`; a test kit's
   * virtual time holds its clock while a fiber blocks in the JDK, unless told that such outside
   * waits count as waiting (`weft-testkit`'s `VirtualTimeConfig.outsideWaitsHoldTime`).
   */
  def waitingOutside[T](body: => T): T = FiberDomain.outside(body)

  /** Tests and clears the current fiber's interrupt status. */
  inline def interrupted(): Boolean = Thread.interrupted()

  /** Tests the current fiber's interrupt status without clearing it. */
  inline def isInterrupted: Boolean = Thread.currentThread().isInterrupted

  /** Re-raises the interrupt status of the current fiber. */
  inline def selfInterrupt(): Unit = Thread.currentThread().interrupt()

  /** A CPU hint inside a short spin loop (no yield). */
  inline def onSpinWait(): Unit = Thread.onSpinWait()

  /**
   * A pause inside a spin loop waiting for another fiber: a CPU hint for the first iterations,
   * then yields, then short timed parks.
   *
   * Yielding alone is not enough: a virtual thread that yields is re-queued at once, so two
   * fibers spinning on yield can keep both carriers of a 2-core machine busy while the fiber they
   * wait for (unmounted, e.g. itself yielding inside a spin) waits for a carrier; a keyed stress
   * test hung that way about one run in 20. A timed park takes the spinner off its carrier for
   * [[SpinParkNanos]] and so lets any runnable fiber run. The interrupt status is kept: it is
   * cleared around the park (an interrupted park would return at once) and raised again after.
   */
  def spinPause(iteration: Int): Unit =
    if iteration < 64 then Thread.onSpinWait()
    else if iteration < 96 then Thread.`yield`()
    else
      val wasInterrupted = Thread.interrupted()
      LockSupport.parkNanos(SpinParkNanos)
      if wasInterrupted then Thread.currentThread().interrupt()

  /** Lets other runnable fibers have the carrier (virtual threads are never preempted). */
  def yieldNow(): Unit = Thread.`yield`()

  /** How long [[spinPause]] parks once spinning and yielding did not suffice: 20 µs. */
  inline val SpinParkNanos = 20000L

  /**
   * The calling fiber as a log line names it: `thread "main"`, or `virtual thread #42` for an
   * unnamed (virtual) thread.
   */
  def currentName: String = describe(Thread.currentThread())

  /** A thread as a log line names it (see [[currentName]]). */
  private[runtime] def describe(t: Thread): String =
    val kind = if t.isVirtual then "virtual thread" else "thread"
    val name = t.getName
    if name.isEmpty then s"$kind #${t.threadId}" else s"$kind \"$name\""

  /** Hands `e` to the current thread's uncaught-exception handler, without unwinding. */
  def reportUncaught(e: Throwable): Unit =
    val t = Thread.currentThread()
    t.getUncaughtExceptionHandler.uncaughtException(t, e)

  extension (f: Fiber)
    /** Wakes the fiber if it is parked (or makes its next park return at once). */
    def unpark(): Unit =
      FiberDomain.beforeWake(f)
      LockSupport.unpark(f)

    /** Interrupts the fiber: a blocking call in it returns early. */
    def interrupt(): Unit =
      FiberDomain.beforeWake(f)
      f.interrupt()

    /**
     * Wakes the fiber unless it is the caller: a fiber completing its own wait (a select or a
     * send served on its own thread) must not leave a permit that makes its next park return at
     * once.
     */
    def unparkOther(): Unit = if f ne Thread.currentThread() then unpark()

    /** Whether the fiber is the caller's own. */
    inline def isCurrent: Boolean = f eq Thread.currentThread()

    /** Whether the fiber has started and not yet finished. */
    inline def isAlive: Boolean = f.isAlive

    /** Waits until the fiber has finished, ignoring interrupts (which are re-raised after). */
    def joinUninterruptibly(): Unit =
      var interrupted = false
      while f.isAlive do
        try f.join()
        catch case _: InterruptedException => interrupted = true
      if interrupted then Thread.currentThread().interrupt()
