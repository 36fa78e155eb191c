package weft.bench

/** The statistics the shootout's external harnesses report with their scores. */
object Stats:

  /**
   * Two-sided 95% quantiles of Student's t for 1 to 9 degrees of freedom; beyond, t(10), which
   * is larger than every later quantile (a slightly wide interval, never a narrow one).
   */
  private val T95 = Seq(12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262)

  /** The mean of `values` and its 95% Student-t half-width (None with fewer than two values). */
  def meanAndError(values: Seq[Double]): (Double, Option[Double]) =
    require(values.nonEmpty, "no values")
    val n = values.size
    val mean = values.sum / n
    if n < 2 then (mean, None)
    else
      val sd = math.sqrt(values.map(v => (v - mean) * (v - mean)).sum / (n - 1))
      val t = T95.lift(n - 2).getOrElse(2.228)
      (mean, Some(t * sd / math.sqrt(n)))
