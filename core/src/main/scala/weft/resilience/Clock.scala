package weft.resilience

import scala.concurrent.duration.*
import weft.{Async, sleep}
import weft.runtime.AsyncSupport

/**
 * The time source of the rate limiters and circuit breakers: monotonic nanoseconds, and a
 * cancellable pause. The clock of a support reads its `clock` and pauses with [[weft.sleep]];
 * tests of the state machines run inside the test kit's virtual time (`RateLimiterSuite`,
 * `CircuitBreakerSuite`), and those that drive their own threads give a manual clock
 * (`RateLimiterOrderSuite`, `RateLimiterLincheckSuite`).
 */
private[weft] trait Clock:

  /** Monotonic nanoseconds; only differences mean anything. */
  def nanoTime(): Long

  /** Suspends the caller for at least `nanos` (> 0) nanoseconds of this clock; cancellable. */
  def sleepNanos(nanos: Long)(using Async): Unit

  /** Runs `task` (short, never throwing) once, `nanos` (>= 0) nanoseconds of this clock from now. */
  def schedule(nanos: Long, task: Runnable): Unit

/** The clocks. */
private[weft] object Clock:

  /**
   * The clock of the calling fiber's support (`AsyncSupport.current`): the system's time, or a
   * test kit's virtual time inside its scope. Taken when a limiter or breaker is built, so it
   * counts the time of the code that built it.
   */
  def current(): Clock = of(AsyncSupport.current)

  /** The time of `support`'s clock, and timers of its scheduler. */
  def of(support: AsyncSupport): Clock = new Clock:
    def nanoTime(): Long = support.clock.nanoTime()
    def sleepNanos(nanos: Long)(using Async): Unit = sleep(nanos.nanos)
    def schedule(nanos: Long, task: Runnable): Unit = support.scheduler.schedule(nanos, task): Unit
