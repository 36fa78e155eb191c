package weft.resilience

import scala.concurrent.duration.FiniteDuration
import weft.Async
import weft.internal.async.Cancellation

/**
 * Limits how often an operation may start: at most so many permits per window of time.
 *
 * Three algorithms, each a factory of the companion:
 *   - [[RateLimiter.fixedWindow]]: at most `maxOps` permits per window; a window lasts at least
 *     `window` and the next starts when asked for, so up to `2 * maxOps` may pass around a
 *     window's end.
 *   - [[RateLimiter.slidingWindow]]: at most `maxOps` permits in ANY period of length `window`
 *     (every permit is remembered until it is `window` old).
 *   - [[RateLimiter.tokenBucket]]: a bucket of `capacity` tokens, one added every
 *     `refillInterval`; a permit takes a token. Bursts up to `capacity`, then a steady rate.
 *
 * [[acquire]] suspends the calling fiber until the permits are available; [[tryAcquire]] takes
 * them only if available now. [[run]] and [[tryRun]] wrap an operation. All are safe to call
 * from many fibers at once, take no lock on their fast path (the sliding window's log is a short
 * critical section; a fixed window turns to the next under one) and start no thread (the fixed
 * window arms one timer per window while in use):
 * a waiting acquirer sleeps on the shared timer until the moment the permits it asked for can
 * be available, then tries again. So waiters are not served
 * in FIFO order: when permits come back, the waiters that wake first take them.
 *
 * A waiting acquirer that is cancelled (its scope ends, a timeout fires) takes nothing: permits
 * are taken only at the moment [[acquire]] returns.
 *
 * {{{
 * val limiter = RateLimiter.fixedWindow(maxOps = 100, window = 1.second)
 * Async.blocking:
 *   urls.foreach(url => limiter.run(fetch(url))) // at most 100 fetches start per second
 * }}}
 */
abstract class RateLimiter private[resilience] (clock: Clock):

  /** The most permits one call may ask for (a larger request could never be granted). */
  def maxPermits: Int

  /**
   * Takes `n` permits if available now: then returns 0; else takes nothing and returns how many
   * nanoseconds from now the permits might be available (> 0). Reads the clock only if the
   * algorithm needs it.
   */
  protected def tryTake(n: Int): Long

  /**
   * Suspends until `permits` permits are available and takes them.
   * @throws IllegalArgumentException
   *   if `permits` < 1 or > [[maxPermits]]
   * @throws java.util.concurrent.CancellationException
   *   if the scope is cancelled before or while waiting; no permit is then taken
   */
  final def acquire(permits: Int = 1)(using Async): Unit =
    checkPermits(permits)
    Cancellation.check("RateLimiter.acquire")
    var wait = tryTake(permits)
    while wait != 0L do
      clock.sleepNanos(wait)
      wait = tryTake(permits)

  /**
   * Takes `permits` permits if they are available now, and returns whether it did; never waits.
   * @throws IllegalArgumentException
   *   if `permits` < 1 or > [[maxPermits]]
   */
  final def tryAcquire(permits: Int = 1): Boolean =
    checkPermits(permits)
    tryTake(permits) == 0L

  /** Waits for one permit (as [[acquire]]), then runs `op` and returns its result. */
  final def run[T](op: => T)(using Async): T =
    acquire(1)
    op

  /** Runs `op` if a permit is available now (as [[tryAcquire]]): `Some(result)`, else `None`. */
  final def tryRun[T](op: => T): Option[T] =
    if tryAcquire(1) then Some(op) else None

  private def checkPermits(permits: Int): Unit =
    if permits < 1 || permits > maxPermits then
      throw IllegalArgumentException(
        s"permits must be between 1 and $maxPermits for $this, got $permits"
      )

/** Factories of the rate limiters. */
object RateLimiter:

  /**
   * At most `maxOps` permits per window of length `window`. A window starts at the first request
   * for a permit after the previous window ended (the first at the first request), at the instant
   * that request reads the clock, holds its permits, and lasts at least `window`; the count
   * restarts in each. Every outcome is one that the same requests made one at a time would give
   * (docs/adr/0019). Cheapest of the three: one atomic update per permit, and no clock read while
   * the window has permits left.
   * @throws IllegalArgumentException
   *   if `maxOps` < 1 or `window` <= 0
   */
  def fixedWindow(maxOps: Int, window: FiniteDuration): RateLimiter =
    fixedWindow(maxOps, window, Clock.current())

  private[weft] def fixedWindow(maxOps: Int, window: FiniteDuration, clock: Clock): RateLimiter =
    FixedWindowLimiter(maxOps, positive(window, "window"), clock)

  /**
   * At most `maxOps` permits in any period of length `window`: a permit is available when fewer
   * than `maxOps` were given in the last `window`. Remembers the time of each permit of the last
   * window (memory grows with `maxOps`).
   * @throws IllegalArgumentException
   *   if `maxOps` < 1 or `window` <= 0
   */
  def slidingWindow(maxOps: Int, window: FiniteDuration): RateLimiter =
    slidingWindow(maxOps, window, Clock.current())

  private[weft] def slidingWindow(maxOps: Int, window: FiniteDuration, clock: Clock): RateLimiter =
    SlidingWindowLimiter(maxOps, positive(window, "window"), clock)

  /**
   * A token bucket holding at most `capacity` tokens, full at the start, refilled with one token
   * every `refillInterval`; each permit takes a token. So bursts of up to `capacity` permits
   * pass at once, and `1 / refillInterval` per unit of time in the long run. One atomic update
   * per permit.
   * @throws IllegalArgumentException
   *   if `capacity` < 1 or `refillInterval` <= 0
   */
  def tokenBucket(capacity: Int, refillInterval: FiniteDuration): RateLimiter =
    tokenBucket(capacity, refillInterval, Clock.current())

  private[weft] def tokenBucket(
      capacity: Int,
      refillInterval: FiniteDuration,
      clock: Clock
  ): RateLimiter =
    TokenBucketLimiter(capacity, positive(refillInterval, "refillInterval"), clock)

  /** `d` in nanoseconds, if positive. */
  private[resilience] def positive(d: FiniteDuration, name: String): Long =
    if d == null || d.toNanos <= 0L then
      throw IllegalArgumentException(s"$name must be > 0, got $d")
    d.toNanos

  /** `n` if at least 1. */
  private[resilience] def atLeastOne(n: Int, name: String): Int =
    if n < 1 then throw IllegalArgumentException(s"$name must be >= 1, got $n")
    n
