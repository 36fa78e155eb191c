package weft.resilience

import java.lang.invoke.{MethodHandles, VarHandle}

/**
 * The token-bucket algorithm of [[RateLimiter.tokenBucket]], as the generic cell rate algorithm
 * (GCRA): the whole state is one number, the "theoretical arrival time" `tat`, the instant at
 * which the bucket would be full again if nothing more were taken. At instant `now` the bucket
 * holds `(now + capacity * interval - tat) / interval` tokens (capped at `capacity` when `tat` is
 * in the past). Taking `n` tokens moves `tat` to `max(tat, now) + n * interval`, allowed while
 * that stays within `capacity * interval` of `now`. So a permit is one CAS of one long: no lock,
 * no allocation, no refill timer, and tokens are exact to the nanosecond
 * (`RateLimiterSuite`, "token bucket: ...").
 */
private[resilience] final class TokenBucketLimiter(capacity: Int, interval: Long, clock: Clock)
    extends RateLimiter(clock):
  import TokenBucketLimiter.TAT
  RateLimiter.atLeastOne(capacity, "capacity")

  // The burst tolerance: how far `tat` may run ahead of now.
  private val tolerance =
    try Math.multiplyExact(capacity.toLong, interval)
    catch
      case _: ArithmeticException =>
        throw IllegalArgumentException(
          s"capacity * refillInterval must fit in ${Long.MaxValue}ns, got $capacity * ${interval}ns"
        )

  @volatile private var tat: Long = clock.nanoTime() // full at the start

  def maxPermits: Int = capacity

  // The clock is read after `tat`, in every round: a refusal then holds at the moment `tat` was
  // read (fewer tokens earlier), a grant at the clock read (`tat` unchanged until the CAS). With
  // the clock read once before the loop, a caller could refuse on a stale instant although a
  // token had come since (`RateLimiterLincheckSuite` found it).
  protected def tryTake(n: Int): Long =
    val cost = n * interval // <= tolerance: no overflow
    while true do
      val t = tat
      val now = clock.nanoTime()
      val next = (if t - now > 0L then t else now) + cost
      val ahead = next - now - tolerance
      if ahead > 0L then return ahead
      if TAT.compareAndSet(this, t, next) then return 0L
    0L // unreachable

  override def toString: String = s"RateLimiter.tokenBucket($capacity, one per ${interval}ns)"

private[resilience] object TokenBucketLimiter:
  private val TAT: VarHandle =
    MethodHandles.privateLookupIn(classOf[TokenBucketLimiter], MethodHandles.lookup())
      .findVarHandle(classOf[TokenBucketLimiter], "tat", classOf[Long])
