package weft

import java.util.concurrent.{CancellationException, ThreadLocalRandom}
import java.util.random.RandomGenerator
import scala.concurrent.duration.{Duration, FiniteDuration, NANOSECONDS}
import scala.util.control.NonFatal
import weft.internal.async.Cancellation

/**
 * A retry policy: how many failures to tolerate, how long to pause before each new attempt, and
 * which failures to retry. Run code under it with [[retry]]:
 * {{{
 * val policy = Retry(3, delay = Retry.Delay.Exponential(initial = 10.millis, max = 1.second))
 * val page = retry(policy)(fetch(url)) // up to 4 attempts: pauses of 10, 20, 40 ms between
 * }}}
 * Unless given, there is no pause (`Delay.None`), no jitter, and every non-fatal failure is
 * retried: give a delay when the failure may last (a service that is down), or the retries come
 * back to back.
 *
 * `maxRetries = n`: the body runs once, and is retried at most `n` times after failures (so at
 * most `n + 1` attempts); the last failure is thrown. `Retry(0)` does not retry, as ox's
 * `maxRetries(0)` and ZIO's `recurs(0)`; [[Retry.forever]] retries until success. (Before 0.1
 * `Retry(0)` meant "retry forever", with no pause by default: a busy loop.) The pause before the
 * `k`-th retry (`k` = 1, 2, ...) is given by [[delay]], then randomised by [[jitter]].
 *
 * With `repeatOnSuccess` the policy repeats the body after successes too, pausing as after a
 * failure, until a failure it does not retry: [[Retry.untilFailure]] (gears' `untilFailure`)
 * repeats a body until its first failure, which is thrown. `maxRetries` then counts
 * consecutive failures (a success resets the count).
 *
 * @param maxRetries
 *   retries after the first attempt (>= 0; [[Retry.Unlimited]] = until success)
 * @param delay
 *   the pause policy
 * @param jitter
 *   randomisation of the pause (must be `Jitter.None` with `Delay.DecorrelatedJitter`, which is
 *   randomised already)
 * @param retryOn
 *   which non-fatal failures to retry; others are thrown at once. Cancellation of the caller's
 *   scope, `InterruptedException` and fatal errors are never retried.
 * @param repeatOnSuccess
 *   whether a success is repeated too (the run then ends only by a failure or cancellation)
 */
final case class Retry(
    maxRetries: Int,
    delay: Retry.Delay = Retry.Delay.None,
    jitter: Retry.Jitter = Retry.Jitter.None,
    retryOn: Throwable => Boolean = _ => true,
    repeatOnSuccess: Boolean = false
):
  require(maxRetries >= 0, s"Retry: maxRetries must be >= 0, got $maxRetries")
  // Checked here rather than found missing at the first retry, where the error would replace
  // the body's own (RetrySuite, "a policy with a missing part is rejected when built").
  require(delay != null, "Retry: delay must not be null (use Retry.Delay.None)")
  require(jitter != null, "Retry: jitter must not be null (use Retry.Jitter.None)")
  require(retryOn != null, "Retry: retryOn must not be null")
  require(
    jitter == Retry.Jitter.None || !delay.isInstanceOf[Retry.Delay.DecorrelatedJitter],
    "Retry: DecorrelatedJitter is randomised already; use Jitter.None with it"
  )

  /**
   * The pauses before retries 1, 2, 3, ... (an infinite iterator), drawing randomness from
   * `random`. Deterministic for `Jitter.None` and a non-random delay.
   */
  def delays(random: RandomGenerator): Iterator[FiniteDuration] =
    var previous: Long = 0L
    Iterator.from(1).map: k =>
      val base = delay.nanosFor(k, previous, random)
      previous = base
      FiniteDuration(jitter.apply(base, random), NANOSECONDS)

/** Delay and jitter policies, and common policies. */
object Retry:

  /** `maxRetries` meaning "until success" (a retry count no run reaches). */
  val Unlimited: Int = Int.MaxValue

  /** Retries at once, without pause, at most `maxRetries` times. */
  def immediate(maxRetries: Int): Retry = Retry(maxRetries)

  /**
   * Retries until success, pausing `delay` between attempts. The delay has no default: retrying
   * forever without a pause is a busy loop, so `Delay.None` must be asked for by name.
   */
  def forever(delay: Delay): Retry = Retry(Unlimited, delay)

  /**
   * Repeats the body while it succeeds, pausing `delay` between runs, and throws its first
   * failure: `retry(Retry.untilFailure(Delay.Constant(1.second)))(poll())` polls every second
   * until `poll` fails. It returns no value (each success is repeated); cancelling the caller
   * stops it. As with [[forever]], `Delay.None` must be asked for by name.
   */
  def untilFailure(delay: Delay): Retry = Retry(0, delay, repeatOnSuccess = true)

  /** How long to pause before the `k`-th retry. */
  enum Delay:

    /** No pause. */
    case None

    /** The same pause every time (>= 0). */
    case Constant(pause: FiniteDuration)

    /**
     * `initial * factor^(k-1)` before the `k`-th retry, capped at `max`. Requires
     * `0 <= initial <= max` and `factor >= 1`.
     */
    case Exponential(initial: FiniteDuration, max: FiniteDuration, factor: Double = 2.0)

    /**
     * "Decorrelated jitter": a random pause in `[base, 3 * previous]`, capped at `max`, where
     * `previous` is the last pause (`base` at first). Requires `0 <= base <= max`.
     */
    case DecorrelatedJitter(base: FiniteDuration, max: FiniteDuration)

    /**
     * A pause computed by `next(k, previous)` before the `k`-th step (`k` = 1, 2, ...), where
     * `previous` is the pause before the step before (`Duration.Zero` at first): any schedule
     * (gears' custom `Delay`). `next` must return a pause >= 0; a negative one is an
     * `IllegalArgumentException`, thrown with the body's failure as its suppressed cause.
     */
    case Custom(next: (Int, FiniteDuration) => FiniteDuration)

    this match // the singleton `None` is not initialised yet while it is constructed
      case Constant(p) =>
        require(p.length >= 0, s"Retry.Delay.Constant: pause must be >= 0, got $p")
      case Exponential(i, m, f) =>
        require(
          i.length >= 0 && i <= m,
          s"Retry.Delay.Exponential: need 0 <= initial <= max, got $i, $m"
        )
        require(f >= 1.0 && !f.isNaN, s"Retry.Delay.Exponential: factor must be >= 1, got $f")
      case DecorrelatedJitter(b, m) =>
        require(
          b.length >= 0 && b <= m,
          s"Retry.Delay.DecorrelatedJitter: need 0 <= base <= max, got $b, $m"
        )
      case Custom(next) => require(next != null, "Retry.Delay.Custom: next must not be null")
      case _            => ()

    /** The pause in nanoseconds before the `k`-th retry, given the previous one. */
    private[weft] def nanosFor(k: Int, previous: Long, random: RandomGenerator): Long = this match
      case None        => 0L
      case Constant(p) => p.toNanos
      case Exponential(initial, max, factor) =>
        val d = initial.toNanos.toDouble * math.pow(factor, (k - 1).toDouble)
        if d >= max.toNanos.toDouble then max.toNanos else d.toLong
      case DecorrelatedJitter(base, max) =>
        val lo = base.toNanos
        val hi = math.max(lo, if previous == 0 then lo else saturating3(previous))
        math.min(max.toNanos, if hi == lo then lo else random.nextLong(lo, hi + 1))
      case Custom(next) =>
        val d = next(k, FiniteDuration(previous, NANOSECONDS))
        require(
          d != null && d.length >= 0,
          s"Retry.Delay.Custom: the pause before step $k must be >= 0, got $d"
        )
        d.toNanos

  private def saturating3(n: Long): Long =
    if n > Long.MaxValue / 3 then Long.MaxValue - 1 else n * 3

  /** How a computed pause `d` is randomised. */
  enum Jitter:

    /** Exactly `d`. */
    case None

    /** Uniform in `[0, d]` (`d` up to `Long.MaxValue`: the bound `d + 1` is never formed). */
    case Full

    /** `d / 2` plus a uniform value in `[0, d / 2]`. */
    case Equal

    private[weft] def apply(d: Long, random: RandomGenerator): Long = this match
      case None => d
      case Full =>
        if d == 0 then 0
        else if d == Long.MaxValue then random.nextLong() & Long.MaxValue // all of [0, d]
        else random.nextLong(0, d + 1)
      case Equal => d / 2 + (if d / 2 == 0 then 0 else random.nextLong(0, d / 2 + 1))

/**
 * Runs `body` until it succeeds, under `policy`: returns its first successful value, or throws
 * the last failure once `policy.maxRetries` retries have failed too (or a failure that
 * `policy.retryOn` rejects). Each attempt runs in its own nested scope; pauses are [[sleep]]s,
 * so cancelling the caller stops the retries at once.
 *
 * A cancel during a pause throws the `CancellationException`, not the failure before the pause:
 * by design, that failure was one the policy tolerates (it would have been retried), so it is
 * not reported either, just as a failed attempt followed by a successful one is not. A failure
 * the policy does not retry is thrown at once, before any pause.
 *
 * @param random
 *   the source of jitter (thread-local random by default)
 */
def retry[T](policy: Retry, random: RandomGenerator = ThreadLocalRandom.current())(
    body: Async ?=> T
)(using Async): T =
  val delays = policy.delays(random)
  var failures = 0L
  var result: Option[T] = scala.None
  while result.isEmpty do
    Cancellation.check("retry")
    var repeat = false
    try
      val v = Async.group(body)
      if policy.repeatOnSuccess then repeat = true else result = Some(v)
    catch
      case e: CancellationException if Cancellation.pending => throw e
      case NonFatal(e) =>
        failures += 1
        // A `retryOn` or a delay that throws must not hide the body's error: what it threw is
        // attached to the body's error, which is thrown.
        val pause =
          try
            if !policy.retryOn(e) || failures > policy.maxRetries then throw e
            delays.next()
          catch
            case d: Throwable if d ne e =>
              if NonFatal(d) then e.addSuppressed(d) else throw d
              throw e
        if pause > Duration.Zero then sleep(pause)
    if repeat then
      // outside the `try`: a delay that throws after a success is thrown, not retried
      failures = 0
      val pause = delays.next()
      if pause > Duration.Zero then sleep(pause)
  result.get
