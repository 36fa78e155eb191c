package weft.resilience

import scala.concurrent.duration.*
import org.jetbrains.kotlinx.lincheck.annotations.Operation
import weft.LincheckRuns
import weft.testing.Stress

/**
 * A limiter's `tryAcquire` of one or two permits, concurrent with the clock moving on, for
 * Lincheck: every concurrent history must be one that the same limiter run sequentially could
 * give (the target is its own sequential specification). The clock is a [[ManualClock]], so
 * the windows turn only when an operation moves it.
 */
abstract class LincheckLimiter(make: Clock => RateLimiter):
  private val manual = ManualClock()
  private val limiter = make(
    // Timers never ring: a fixed window's timer only ends a window early for the fast path, and
    // when it rings is not part of a sequential history (the window lasts "at least" its length).
    // Without it the window ends through the slow path, at its end exactly.
    new Clock:
      def nanoTime(): Long = manual.nanoTime()
      def sleepNanos(nanos: Long)(using weft.Async): Unit = manual.sleepNanos(nanos)
      def schedule(nanos: Long, task: Runnable): Unit = ()
  )

  @Operation def tryAcquire1(): Boolean = limiter.tryAcquire(1)

  @Operation def tryAcquire2(): Boolean = limiter.tryAcquire(2)

  @Operation def advance(): Unit = manual.advance(400.millis)

/** Lincheck target: a fixed window of 3 permits per second. */
class LincheckFixedWindow extends LincheckLimiter(RateLimiter.fixedWindow(3, 1.second, _))

/** Lincheck target: a token bucket of 3, one token per 300 ms. */
class LincheckTokenBucket extends LincheckLimiter(RateLimiter.tokenBucket(3, 300.millis, _))

/** Lincheck target: a sliding window of 3 permits per second. */
class LincheckSlidingWindow extends LincheckLimiter(RateLimiter.slidingWindow(3, 1.second, _))

/** Model checking and stress of the limiters' state (see the targets above). */
class RateLimiterLincheckSuite extends munit.FunSuite:
  override val munitTimeout = 10.minutes

  for target <- Seq(
      classOf[LincheckFixedWindow],
      classOf[LincheckTokenBucket],
      classOf[LincheckSlidingWindow]
    )
  do
    test(s"${target.getSimpleName}: tryAcquire linearizable (model checking)".tag(Stress.tag)):
      LincheckRuns.modelCheck(
        target,
        iterations = 20,
        invocations = 60,
        threads = 3,
        actorsPerThread = 3
      )

    test(s"${target.getSimpleName}: tryAcquire linearizable (stress)".tag(Stress.tag)):
      LincheckRuns.stress(
        target,
        iterations = 20,
        invocations = 500,
        threads = 3,
        actorsPerThread = 3
      )
