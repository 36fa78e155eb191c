package weft.bench.memcached

import java.util.Locale

/** What [[OpenLoop]] writes: the scores, the full table and the chart data. */
object OpenLoopTables:

  private def f(d: Double): String = String.format(Locale.ROOT, "%.1f", d)

  /** The three metrics, each with how a block gives it. */
  val Metrics: Seq[(String, OpenLoopBlock => Double)] =
    Seq("p50" -> (_.p50), "p99" -> (_.p99), "p999" -> (_.p999))

  /**
   * The harness's JSON for the shootout: per contender and metric, the geometric mean over the blocks
   * at the judged load as the score and the block values as `"samples"` (null without that
   * load). `at` holds the contenders' loads at the judged load.
   */
  def scoresJson(contenders: Seq[String], at: Seq[OpenLoopStats.Load]): String =
    val objects = contenders.flatMap { c =>
      val l = at.find(_.contender == c)
      Metrics.map { (m, get) =>
        val score = l.fold("null")(x => x.mean(get).toString)
        val samples = l.fold("[]")(_.blocks.map(get).mkString("[", ", ", "]"))
        s"""{"contender": "$c", "metric": "$m", "score": $score, "error": null, """ +
          s""""samples": $samples}"""
      }
    }
    objects.mkString("[", ",\n", "]\n")

  /** `geometric mean (min–max)` of `get` over the load's blocks. */
  private def spread(l: OpenLoopStats.Load, get: OpenLoopBlock => Double): String =
    val vs = l.blocks.map(get)
    s"${f(l.mean(get))} (${f(vs.min)}–${f(vs.max)})"

  /** Every contender at every load, as Markdown for the report's details. */
  def markdown(
      loads: Seq[OpenLoopStats.Load],
      failed: Map[String, String],
      set: OpenLoop.Settings,
      top: Option[Int],
      mode: String
  ): String =
    val sb = StringBuilder()
    sb ++= "# memcached open loop: every contender at every offered load\n\n"
    sb ++= s"Offered loads ${set.rates.mkString(", ")} gets/s ($mode mode), ${set.blocks} " +
      s"blocks per load, each a fresh server (`key0`..`key999` stored) and a freshly opened " +
      s"client, a ${set.blockWarm} s closed-loop warm-up (${set.firstWarm} s for a JVM's " +
      s"first block), then a window of ${set.rates.map(set.gets).distinct.mkString("/")} gets " +
      "(one JVM per contender). Blocking rows send each get on its own virtual thread calling " +
      "the client's blocking get; asynchronous rows (`...Async`, `weftPipelined`) call the " +
      "client's asynchronous get from the sending thread. Latency from the request's intended " +
      "send time (open loop, no coordinated omission). A window completed when at least 95% " +
      "of its gets completed within it, all within 1 s after it, none failed; a load is " +
      "sustained when more than half of its blocks' windows completed and the median of " +
      s"their p99s is at most ${f(OpenLoopStats.CeilingMicros / 1e3)} ms; a contender's ladder stops at " +
      "its first load not sustained. Each percentile is the geometric mean over the blocks (their " +
      "lowest and highest in brackets); the scores' 95% intervals are computed from the " +
      "blocks (Student's t on their logarithms). Percentiles are upper bucket bounds of a log-linear histogram (at " +
      "most 1.6% above the true value).\n\n"
    sb ++= top.fold(
      "**No offered load was sustained by every contender that sustained any**: the " +
        "p50/p99/p99.9 workloads have no scores.\n\n"
    )(r =>
      if mode == "smoke" then s"Smoke run: the scores are at $r gets/s, sustained or not.\n\n"
      else
        s"Highest offered load every contender sustained: **$r gets/s** (the scores above; a " +
          "contender that sustained none of the loads is FAILED below and does not count).\n\n"
    )
    sb ++= "| contender | offered (gets/s) | sustained | blocks completed | gets per block | " +
      "p50 (µs) | p99 (µs) | p99.9 (µs) | max (µs) | server CPU per get (µs) |\n"
    sb ++= "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n"
    for l <- loads do
      val sent = l.blocks.map(_.sent).sum
      val cpu =
        if l.blocks.exists(_.cpuNanos < 0) || sent == 0 then "n/a"
        else f(l.blocks.map(_.cpuNanos).sum / 1e3 / sent)
      val ok = if OpenLoopStats.sustained(l) then "yes" else "**no**"
      sb ++= s"| ${l.contender} | ${l.rate} | $ok | ${l.blocks.count(_.completed)} of " +
        s"${l.blocks.size} | ${l.blocks.map(_.sent).max} | ${spread(l, _.p50)} | " +
        s"${spread(l, _.p99)} | ${spread(l, _.p999)} | ${f(l.blocks.map(_.max).max)} | $cpu |\n"
    for (c, why) <- failed do sb ++= s"\n- **FAILED** `$c`: $why\n"
    sb ++= "\n![latency by percentile](memcached-openloop-latency.png)\n"
    sb ++= "\n![p99 by offered load](memcached-openloop-p99-by-load.png)\n"
    sb.result()

  /**
   * `{"rate": top|null, "curvesRate": r|null, "curves": {contender: [[percentile, µs], ...]},
   * "p99ByRate": {contender: [[rate, µs, sustained], ...]}}`: the curves (pooled over the
   * blocks) at the top load, or without one at the lowest load (`curvesRate`: every contender
   * measured it, so the chart still compares them, its title saying the load was not
   * sustained by all), and each load's p99 (the geometric mean over its blocks).
   */
  def curvesJson(
      curves: Seq[(String, Map[Int, Seq[(Double, Double)]])],
      loads: Seq[OpenLoopStats.Load],
      top: Option[Int],
      lowest: Option[Int]
  ): String =
    val at = top.orElse(lowest)
    val atRate = curves.flatMap((c, m) => at.flatMap(m.get).map(c -> _))
    val curveText = atRate.map((c, pts) =>
      s""""$c": ${pts.map((p, v) => s"[$p, $v]").mkString("[", ", ", "]")}"""
    ).mkString("{", ", ", "}")
    val byRate = loads.groupBy(_.contender).toSeq.sortBy(_._1).map((c, ls) =>
      s""""$c": ${ls.sortBy(_.rate).map(l =>
          s"[${l.rate}, ${l.p99}, ${OpenLoopStats.sustained(l)}]"
        ).mkString("[", ", ", "]")}"""
    ).mkString("{", ", ", "}")
    s"""{"rate": ${top.fold("null")(_.toString)}, "curvesRate": ${at.fold("null")(
        _.toString
      )}, """ +
      s""""curves": $curveText, "p99ByRate": $byRate}""" + "\n"
