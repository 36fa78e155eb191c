package weft.resilience

import scala.concurrent.duration.*
import weft.{Async, sleep}
import weft.runtime.AsyncSupport

/**
 * The time source of the rate limiters and circuit breakers: monotonic nanoseconds, and a
 * cancellable pause. The system clock reads `System.nanoTime` and pauses with [[weft.sleep]];
 * tests give a manual clock instead, so that a state machine is checked step by step without
 * sleeping (`RateLimiterSuite`, `CircuitBreakerSuite`).
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

  /** `System.nanoTime`, and timers of the shared scheduler. */
  val system: Clock = new Clock:
    def nanoTime(): Long = System.nanoTime()
    def sleepNanos(nanos: Long)(using Async): Unit = sleep(nanos.nanos)
    def schedule(nanos: Long, task: Runnable): Unit =
      AsyncSupport.default.scheduler.schedule(nanos, task): Unit
