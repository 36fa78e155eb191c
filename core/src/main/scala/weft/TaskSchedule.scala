package weft

import scala.concurrent.duration.FiniteDuration

/**
 * How a [[Task]] repeats. Every schedule runs the body at once, then again after pauses, and
 * counts runs exactly: `maxRepetitions = n > 0` means the body runs at most `n` times in total
 * (never `n + 1`); `0` means no limit. What the task's future ends with:
 *
 *   - `Every`, `ExponentialBackoff`, `FibonacciBackoff`, `RepeatUntilFailure`: stop at the
 *     first failure and end with that `Failure`; if `n` runs all succeed, end with the `Success`
 *     of the `n`-th (last) run.
 *   - `RepeatUntilSuccess`: stops at the first success and ends with that `Success`; if `n` runs
 *     all fail, ends with the `Failure` of the `n`-th (last) run.
 *
 * With no limit, a schedule ends only by its stop condition or by cancellation. Cancelling the
 * task's future stops it at once: a pause or a run in progress is interrupted, no further run
 * starts, and the pause's timer is freed; the future then holds `Failure(CancellationException)`.
 * A "failure" is a non-fatal exception of the body, or a body of type `Try` returning a
 * `Failure` (which the future then holds as its value, `Success(Failure(e))`, as gears does); an
 * `InterruptedException`, a fatal error, or the cancellation of the task itself always ends the
 * task.
 *
 * All delays are in milliseconds and must be >= 0, and `maxRepetitions` >= 0; otherwise the
 * constructor throws an `IllegalArgumentException`. Each schedule also takes its delay as a
 * `FiniteDuration` (`Every(100.millis)`), rounded up to whole milliseconds, so that a delay below
 * a millisecond never becomes no delay at all.
 */
sealed abstract class TaskSchedule(millis: Long, val maxRepetitions: Long)
    extends Product,
      Serializable:
  require(millis >= 0, s"$productPrefix: millis must be >= 0, got $millis")
  require(maxRepetitions >= 0, s"$productPrefix: maxRepetitions must be >= 0, got $maxRepetitions")

/** The schedules. */
object TaskSchedule:

  /** `d` in whole milliseconds, rounded up (see [[TaskSchedule]]). */
  private def ceilMillis(d: FiniteDuration): Long =
    require(d.length >= 0, s"TaskSchedule: the delay must be >= 0, got $d")
    val n = d.toNanos
    n / 1_000_000 + (if n % 1_000_000 == 0 then 0 else 1)

  /**
   * Runs the body every `millis` milliseconds, at fixed rate: run `k` starts `k * millis` after
   * the first one. A run that overruns its period makes the next start at once, and the rate is
   * then counted from that start (missed periods are skipped, not run in a burst).
   */
  final case class Every(millis: Long, override val maxRepetitions: Long = 0)
      extends TaskSchedule(millis, maxRepetitions)

  /** [[Every]] with its period as a duration. */
  object Every:
    /** Every `period`, without limit. */
    def apply(period: FiniteDuration): Every = Every(ceilMillis(period), 0L)

    /** Every `period`, at most `maxRepetitions` runs. */
    def apply(period: FiniteDuration, maxRepetitions: Long): Every =
      Every(ceilMillis(period), maxRepetitions)

  /**
   * Runs the body, pausing `millis * exponentialBase^(k-1)` milliseconds after the `k`-th run
   * (`millis`, `2 millis`, `4 millis`, ... with the default base 2). Pauses saturate at the
   * largest representable duration. `exponentialBase` must be >= 1.
   */
  final case class ExponentialBackoff(
      millis: Long,
      exponentialBase: Int = 2,
      override val maxRepetitions: Long = 0
  ) extends TaskSchedule(millis, maxRepetitions):
    require(
      exponentialBase >= 1,
      s"ExponentialBackoff: exponentialBase must be >= 1, got $exponentialBase"
    )

  /** [[ExponentialBackoff]] with its first pause as a duration. */
  object ExponentialBackoff:
    /** Pauses of `first * exponentialBase^(k-1)`, at most `maxRepetitions` runs (0: no limit). */
    def apply(
        first: FiniteDuration,
        exponentialBase: Int,
        maxRepetitions: Long
    ): ExponentialBackoff =
      ExponentialBackoff(ceilMillis(first), exponentialBase, maxRepetitions)

    /** Pauses of `first * 2^(k-1)`, without limit. */
    def apply(first: FiniteDuration): ExponentialBackoff =
      ExponentialBackoff(ceilMillis(first), 2, 0L)

  /**
   * Runs the body, pausing `millis * F(k)` milliseconds after the `k`-th run, where `F` is the
   * Fibonacci sequence 1, 1, 2, 3, 5, 8, ... Pauses saturate at the largest representable
   * duration.
   */
  final case class FibonacciBackoff(millis: Long, override val maxRepetitions: Long = 0)
      extends TaskSchedule(millis, maxRepetitions)

  /** [[FibonacciBackoff]] with its unit pause as a duration. */
  object FibonacciBackoff:
    /** Pauses of `pause * F(k)`, without limit. */
    def apply(pause: FiniteDuration): FibonacciBackoff = FibonacciBackoff(ceilMillis(pause), 0L)

    /** Pauses of `pause * F(k)`, at most `maxRepetitions` runs. */
    def apply(pause: FiniteDuration, maxRepetitions: Long): FibonacciBackoff =
      FibonacciBackoff(ceilMillis(pause), maxRepetitions)

  /** Runs the body until it fails, pausing `millis` milliseconds after each successful run. */
  final case class RepeatUntilFailure(millis: Long = 0, override val maxRepetitions: Long = 0)
      extends TaskSchedule(millis, maxRepetitions)

  /** [[RepeatUntilFailure]] with its pause as a duration. */
  object RepeatUntilFailure:
    /** Pauses of `pause`, without limit. */
    def apply(pause: FiniteDuration): RepeatUntilFailure = RepeatUntilFailure(ceilMillis(pause), 0L)

    /** Pauses of `pause`, at most `maxRepetitions` runs. */
    def apply(pause: FiniteDuration, maxRepetitions: Long): RepeatUntilFailure =
      RepeatUntilFailure(ceilMillis(pause), maxRepetitions)

  /** Runs the body until it succeeds, pausing `millis` milliseconds after each failed run. */
  final case class RepeatUntilSuccess(millis: Long = 0, override val maxRepetitions: Long = 0)
      extends TaskSchedule(millis, maxRepetitions)

  /** [[RepeatUntilSuccess]] with its pause as a duration. */
  object RepeatUntilSuccess:
    /** Pauses of `pause`, without limit. */
    def apply(pause: FiniteDuration): RepeatUntilSuccess = RepeatUntilSuccess(ceilMillis(pause), 0L)

    /** Pauses of `pause`, at most `maxRepetitions` runs. */
    def apply(pause: FiniteDuration, maxRepetitions: Long): RepeatUntilSuccess =
      RepeatUntilSuccess(ceilMillis(pause), maxRepetitions)
