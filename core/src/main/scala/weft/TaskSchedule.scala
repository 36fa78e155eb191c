package weft

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
 * constructor throws an `IllegalArgumentException`.
 */
sealed abstract class TaskSchedule(millis: Long, val maxRepetitions: Long)
    extends Product,
      Serializable:
  require(millis >= 0, s"$productPrefix: millis must be >= 0, got $millis")
  require(maxRepetitions >= 0, s"$productPrefix: maxRepetitions must be >= 0, got $maxRepetitions")

/** The schedules. */
object TaskSchedule:

  /**
   * Runs the body every `millis` milliseconds, at fixed rate: run `k` starts `k * millis` after
   * the first one. A run that overruns its period makes the next start at once, and the rate is
   * then counted from that start (missed periods are skipped, not run in a burst).
   */
  final case class Every(millis: Long, override val maxRepetitions: Long = 0)
      extends TaskSchedule(millis, maxRepetitions)

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

  /**
   * Runs the body, pausing `millis * F(k)` milliseconds after the `k`-th run, where `F` is the
   * Fibonacci sequence 1, 1, 2, 3, 5, 8, ... Pauses saturate at the largest representable
   * duration.
   */
  final case class FibonacciBackoff(millis: Long, override val maxRepetitions: Long = 0)
      extends TaskSchedule(millis, maxRepetitions)

  /** Runs the body until it fails, pausing `millis` milliseconds after each successful run. */
  final case class RepeatUntilFailure(millis: Long = 0, override val maxRepetitions: Long = 0)
      extends TaskSchedule(millis, maxRepetitions)

  /** Runs the body until it succeeds, pausing `millis` milliseconds after each failed run. */
  final case class RepeatUntilSuccess(millis: Long = 0, override val maxRepetitions: Long = 0)
      extends TaskSchedule(millis, maxRepetitions)
