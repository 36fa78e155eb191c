package weft.shootout

/**
 * A confidence interval of a score: `[low, high]` at `level` (0.95 for 95%).
 *
 * @param pointOnly
 *   true when there was no spread to estimate (one sample, or a harness that gives no error):
 *   the interval is the score itself and a verdict on it says so
 */
final case class Interval(low: Double, high: Double, level: Double, pointOnly: Boolean = false):
  require(!(low > high), s"interval low $low above high $high")

  /** The half-width relative to the midpoint, `0.08` for ±8%. */
  def relativeHalfWidth: Double =
    val mid = (low + high) / 2
    if mid == 0 then Double.PositiveInfinity else (high - low) / 2 / math.abs(mid)

/**
 * Building intervals.
 *
 * The shootout's verdicts use a 95% Student-t interval of the mean of every measured iteration
 * of every fork (JMH's own `scoreError` is a 99.9% interval, kept in `summary.json` as
 * `error`). Iterations within one fork are not independent (the JIT and the heap settle once
 * per JVM), which is why quick mode runs two forks; the `--repeat` check re-tests the verdicts.
 */
object Interval:

  /** The confidence level of the shootout's intervals. */
  val Level: Double = 0.95

  /** Two-sided 95% quantiles of Student's t for 1 to 30 degrees of freedom. */
  private val T95: Array[Double] = Array(
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042
  )

  /**
   * The two-sided 95% quantile of Student's t with `dof` degrees of freedom: the table up to
   * 30, then the first two terms of its expansion around the normal quantile 1.96 (exact to
   * three decimals there).
   */
  def t95(dof: Int): Double =
    require(dof >= 1, s"degrees of freedom must be >= 1, got $dof")
    if dof <= T95.length then T95(dof - 1)
    else
      val z = 1.959964
      z + (z * z * z + z) / (4.0 * dof)

  /** The 95% interval of the mean of `samples`; a point when there are fewer than two. */
  def ofSamples(samples: Seq[Double]): Option[Interval] =
    val n = samples.size
    if n == 0 then None
    else
      val mean = samples.sum / n
      if n == 1 then Some(Interval(mean, mean, Level, pointOnly = true))
      else
        val variance = samples.map(s => (s - mean) * (s - mean)).sum / (n - 1)
        val half = t95(n - 1) * math.sqrt(variance / n)
        Some(Interval(mean - half, mean + half, Level))

  /**
   * The interval of a score known only with an error half-width at `level` (JMH's 99.9%, or a
   * harness's own); a point when the error is unknown.
   */
  def ofError(score: Double, error: Option[Double], level: Double): Interval =
    error.filter(e => !e.isNaN && !e.isInfinite) match
      case Some(e) => Interval(score - e, score + e, level)
      case None    => Interval(score, score, level, pointOnly = true)
