package weft.shootout

/**
 * The front of `REPORT.md`: how to read it, and one line per workload, thread count and target
 * with the verdict and the interval it rests on. Workloads without a target show weft against
 * its best peer, with no verdict.
 */
object Overview:

  /** One line of the overview: a target's verdict, or (no target) the best peer. */
  final case class Line(
      workload: Workload,
      threads: Int,
      target: Option[Target],
      verdict: Option[Verdict],
      comparison: Option[Comparison]
  ):
    /**
     * The chart's category label, `compose-3 t10 vs asyncAwait`; a target judged on another
     * weft row names it: `sequentially-io (weftDefaultSlack) vs futureChain`.
     */
    def label: String =
      val t = if workload.threads.size > 1 then s" t$threads" else ""
      s"${workload.id}$t$judgedOn" + comparison.fold("")(c => s" vs ${c.reference}")

    /** ` (weftDefaultSlack)` when a target is judged on a weft row other than `weft`. */
    def judgedOn: String =
      if target.isDefined && workload.judgedAs != Contender.weft then s" (${workload.judgedAs.id})"
      else ""

  /** Every line, in report order. */
  def lines(workloads: Seq[Workload], rows: Seq[Row], checkTargets: Boolean): Seq[Line] =
    workloads.flatMap { w =>
      val mine = rows.filter(_.workload == w.id)
      if mine.isEmpty then Nil
      else if w.targets.nonEmpty && checkTargets then
        Targets.check(w, mine).map((t, th, v) => Line(w, th, Some(t), Some(v), v.comparison))
      else Targets.bestPeer(w, mine).map((th, c) => Line(w, th, None, None, Some(c)))
    }

  /** What a reader needs before the figures. */
  val howToRead: Seq[String] = Seq(
    "",
    "## How to read this report",
    "",
    "- **Verdicts.** Each score has a 95% confidence interval (Student's t over every measured " +
      "iteration of every fork; for the harnesses, over their one-second blocks or, for memory, " +
      "their JVMs). A target compares weft with a reference through the ratio of " +
      "their scores, bounded by pairing the worst end of one interval with the best end of the " +
      "other. **MET**: the whole ratio interval is on the good side of the limit. **MISSED**: " +
      "the whole interval is on the bad side. **INCONCLUSIVE**: the interval straddles the limit, " +
      "or a score has no interval (one sample), so this run cannot tell; it is neither a pass " +
      "nor a failure, and more iterations or a quieter machine are needed. " +
      "`shootout --repeat N` reruns the suite and counts the verdicts.",
    "- **Speedup.** The overview gives weft's speedup: the work per second weft does over the " +
      "reference's (for ns/op and bytes/op, the reference's cost over weft's). Above 1 weft is " +
      "ahead.",
    "- **Like-for-like rows.** A contender is a benchmark method. Where a peer can be configured " +
      "in more than one reasonable way, or weft uses a facility that a peer lacks, both rows are " +
      "shown and each workload's notes say which is the like-for-like comparison; targets are " +
      "checked against the like-for-like row.",
    "- **Why a quick run is noisy.** Quick mode measures a few short iterations in two JVMs per " +
      "benchmark (four where one JVM's mode was seen to decide a verdict), on whatever else " +
      "the machine is doing. JIT state, GC phases and other processes " +
      "move single iterations by 10% or more, and spinning contenders collapse when the cores " +
      "are busy. The intervals show this noise; they do not show a bias that lasts a whole run " +
      "(a busy machine), which only a rerun exposes."
  )

  /**
   * How wide the intervals came out: the median and 90th percentile of their half-widths
   * relative to the score (quick mode aims at a median within ±10%).
   */
  def precision(rows: Seq[Row]): Option[String] =
    val widths = rows.flatMap(_.interval).filterNot(_.pointOnly).map(_.relativeHalfWidth).sorted
    Option.when(widths.nonEmpty) {
      def pct(q: Double) = widths(math.min(widths.size - 1, (q * widths.size).toInt))
      f"- 95%% intervals: median half-width ±${pct(0.5) * 100}%.1f%% of the score, " +
        f"90th percentile ±${pct(0.9) * 100}%.1f%% (${widths.size} intervals)."
    }

  private def threadsText(n: Int): String = if n == 1 then "1 thread" else s"$n threads"

  private def speedupText(c: Comparison): String =
    Targets.range(c.speedup.point, c.speedup.low, c.speedup.high, c.speedup.pointOnly)

  /**
   * The overview section: counts, what quick mode left out, the chart, one table row per line,
   * failures, skips.
   */
  def render(
      mode: RunMode,
      workloads: Seq[Workload],
      rows: Seq[Row],
      skipped: Seq[(Workload, String)],
      leftOut: Seq[LeftOut] = Nil
  ): Seq[String] =
    val measured = workloads.filter(w => rows.exists(_.workload == w.id))
    val checked = mode != RunMode.Smoke
    val all = lines(workloads, rows, checked)
    val counts = all.flatMap(_.verdict).groupMapReduce(_.label)(_ => 1)(_ + _)
    val countText =
      Seq("MET", "MISSED", "INCONCLUSIVE", "NOT CHECKED").flatMap(l =>
        counts.get(l).map(n => s"$n $l")
      )
    val failed = rows.filter(_.failed)
    Seq("", "## Overview", "") ++
      Seq(
        s"- ${measured.size} workloads measured, ${rows.size} results, ${failed.size} FAILED, ${skipped.size} skipped."
      ) ++ LeftOut.overviewLine(leftOut) ++ precision(rows).toSeq ++
      (if !checked then Seq("- targets are not checked in a smoke run.")
       else
         Seq(s"- targets: ${if countText.isEmpty then "none" else countText.mkString(", ")}.")
      ) ++
      Seq(
        "",
        "![overview](overview.png)",
        "",
        "| workload | threads | target | verdict | weft's speedup over | speedup (95% interval) | limit |",
        "|---|---:|---|---|---|---:|---:|"
      ) ++ all.map { l =>
        val target = l.target.fold("(no target)")(t =>
          Targets.describe(t, l.workload.unit) +
            (if l.judgedOn.isEmpty then "" else s", judged on `${l.workload.judgedAs.id}`")
        )
        val verdict = l.verdict.fold("")(v =>
          if v.outcome == Outcome.Met then v.label else s"**${v.label}**"
        )
        val ref = l.comparison.fold("")(c => s"`${c.reference}`")
        val s = l.comparison.fold(l.verdict.fold("")(_.detail))(speedupText)
        val limit = l.comparison.map(_.limit).filterNot(_.isNaN).fold("")(Format.factor)
        s"| ${l.workload.id} | ${l.threads} | $target | $verdict | $ref | $s | $limit |"
      } ++
      (if failed.isEmpty && skipped.isEmpty then Nil else Seq("")) ++
      failed.map(r =>
        s"- **FAILED**: `${r.workload}` / `${r.contender}` at ${threadsText(r.threads)}"
      ) ++
      skipped.map((w, why) => s"- skipped `${w.id}`: $why")
