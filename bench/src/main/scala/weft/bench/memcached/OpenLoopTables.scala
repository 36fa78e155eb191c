package weft.bench.memcached

import java.util.Locale

/** What [[OpenLoop]] writes beside its JSON: the full table and the chart data. */
object OpenLoopTables:

  private def f(d: Double): String = String.format(Locale.ROOT, "%.1f", d)

  /** Every contender at every load, as Markdown for the report's details. */
  def markdown(
      points: Seq[OpenLoop.Point],
      failed: Map[String, String],
      rates: Seq[Int],
      top: Option[Int],
      window: Double,
      mode: String
  ): String =
    val sb = StringBuilder()
    sb ++= "# memcached open loop: every contender at every offered load\n\n"
    sb ++= s"Offered loads ${rates.mkString(", ")} gets/s, a window of $window s each ($mode " +
      "mode), one fresh JVM and server per contender, `key0`..`key999` stored, one get of a " +
      "random key per request on its own virtual thread, latency from the request's intended " +
      "send time (open loop, no coordinated omission). Sustained: at least 95% of the window's " +
      "gets completed within it, all within 1 s after it, none failed; a contender's ladder " +
      "stops at its first load not sustained. Percentiles are upper bucket bounds of a " +
      "log-linear histogram (at most 1.6% above the true value).\n\n"
    sb ++= top.fold(
      "**No offered load was sustained by every contender**: the p50/p99/p99.9 workloads " +
        "have no scores.\n\n"
    )(r =>
      if mode == "smoke" then s"Smoke run: the scores are at $r gets/s, sustained or not.\n\n"
      else s"Highest offered load every contender sustained: **$r gets/s** (the scores above).\n\n"
    )
    sb ++= "| contender | offered (gets/s) | sustained | gets sent | completed in window | " +
      "p50 (µs) | p99 (µs) | p99.9 (µs) | max (µs) | server CPU per get (µs) |\n"
    sb ++= "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n"
    for p <- points do
      val cpu = if p.cpuNanos < 0 || p.sent == 0 then "n/a" else f(p.cpuNanos / 1e3 / p.sent)
      sb ++= s"| ${p.contender} | ${p.rate} | ${if p.sustained then "yes" else "**no**"} | " +
        s"${p.sent} | ${p.inWindow} | ${f(p.p50)} | ${f(p.p99)} | ${f(p.p999)} | ${f(p.max)} | $cpu |\n"
    for (c, why) <- failed do sb ++= s"\n- **FAILED** `$c`: $why\n"
    sb ++= "\n![latency by percentile](memcached-openloop-latency.png)\n"
    sb ++= "\n![p99 by offered load](memcached-openloop-p99-by-load.png)\n"
    sb.result()

  /**
   * `{"rate": top|null, "curves": {contender: [[percentile, µs], ...]}, "p99ByRate":
   * {contender: [[rate, µs, sustained], ...]}}`: the curves at the top load.
   */
  def curvesJson(
      curves: Seq[(String, Map[Int, Seq[(Double, Double)]])],
      points: Seq[OpenLoop.Point],
      top: Option[Int]
  ): String =
    val atTop = curves.flatMap((c, m) => top.flatMap(m.get).map(c -> _))
    val curveText = atTop.map((c, pts) =>
      s""""$c": ${pts.map((p, v) => s"[$p, $v]").mkString("[", ", ", "]")}"""
    ).mkString("{", ", ", "}")
    val byRate = points.groupBy(_.contender).toSeq.sortBy(_._1).map((c, ps) =>
      s""""$c": ${ps.sortBy(_.rate).map(p => s"[${p.rate}, ${p.p99}, ${p.sustained}]").mkString(
          "[",
          ", ",
          "]"
        )}"""
    ).mkString("{", ", ", "}")
    s"""{"rate": ${top.fold("null")(_.toString)}, "curves": $curveText, "p99ByRate": $byRate}""" +
      "\n"
