package weft.shootout

import java.time.Instant

/**
 * What `REPORT.md` is made of, besides the rows.
 *
 * @param commit
 *   the git commit measured, when known
 * @param loadAtEnd
 *   the 1-minute load average when the run ended
 * @param jmhVersion
 *   from the results, when any
 */
final case class RunInfo(
    mode: RunMode,
    started: Instant,
    seconds: Double,
    machine: Machine,
    loadAtEnd: Double,
    versions: Seq[(String, String)],
    commit: Option[String],
    jmhVersion: Option[String],
    benchmarkJvmArgs: Seq[String]
)

/** Rendering `REPORT.md`. */
object Report:

  private def gib(bytes: Long): String =
    if bytes <= 0 then "?" else f"${bytes / math.pow(1024, 3)}%.1f GiB"

  private def load(d: Double): String = if d < 0 then "n/a" else f"$d%.2f"

  private def param(r: Row, k: String): String =
    r.params.get(k).map(v => v.strOpt.getOrElse(v.num.toInt.toString)).getOrElse("?")

  /** The JMH flags of a row's params except threads, `-bm avgt -wi 3 -w 1s -i 3 -r 1s -f 1`. */
  def jmhFlags(r: Row): String =
    def p(k: String) = param(r, k)
    if r.params.contains("benchmark") then
      s"-bm ${p("mode")} -wi ${p("warmupIterations")} -w ${p("warmupTime")} -i ${p("iterations")} -r ${p("time")} -f ${p("forks")}"
    else s"harness ${p("harness")}, mode ${p("mode")}"

  /** Rows in table order: by thread count, weft first, then by name. */
  def ordered(rows: Seq[Row]): Seq[Row] =
    rows.sortBy(r => (r.threads, r.contender != Workloads.Baseline, r.contender))

  /** A warning when the machine had more runnable work than cores during the run. */
  def busy(info: RunInfo): Seq[String] =
    val peak = math.max(info.machine.loadAverage, info.loadAtEnd)
    if peak <= info.machine.cores then Nil
    else
      Seq(
        "",
        s"**The machine was busy: load average up to ${load(peak)} on ${info.machine.cores} cores. Other " +
          "processes competed for the CPU, so the figures are rough; errors are wide and spinning " +
          "workloads suffer most. Re-run on an idle machine before drawing conclusions.**"
      )

  private def threadsText(n: Int): String = if n == 1 then "1 thread" else s"$n threads"

  private def header(info: RunInfo): Seq[String] =
    val m = info.machine
    Seq(
      s"# weft shootout: ${info.mode.toString.toLowerCase} run",
      "",
      s"Run ${info.started} for ${Format.duration(info.seconds)}" + info.commit.fold("")(c =>
        s", weft at commit `$c`"
      ) + ".",
      "",
      "| | |",
      "|---|---|",
      s"| machine | ${m.cpu}, ${m.cores} cores, ${gib(m.memoryBytes)} memory |",
      s"| OS | ${m.os} |",
      s"| JDK | ${m.jdk} |",
      s"| load average (1 min) | ${load(m.loadAverage)} at start, ${load(info.loadAtEnd)} at end |",
      s"| JMH | ${info.jmhVersion.getOrElse("?")} |",
      s"| benchmark JVM flags | `${info.benchmarkJvmArgs.mkString(" ")}` |"
    ) ++ info.versions.map((name, v) => s"| $name | $v |") ++ Seq(
      "",
      "Ratios are `contender ÷ weft` at the same thread count: for ops/s above 1 means the " +
        "contender is faster than weft, for ns/op above 1 means it is slower. Published figures " +
        "come from the seeds' own reports, measured on other hardware with other versions: compare " +
        "ratios, not absolute numbers."
    ) ++ busy(info) ++ (if info.mode == RunMode.Smoke then
                          Seq(
                            "",
                            "**Smoke run: one tiny iteration per benchmark. These numbers are not measurements.**"
                          )
                        else Nil)

  private def table(w: Workload, rows: Seq[Row]): Seq[String] =
    val published = w.published.flatMap(p => p.ours.map(o => (o.id, p.threads) -> p)).toMap
    // Figures measured beside the scores (the memcached server's CPU per op): one column each.
    val extras = rows.flatMap(_.extras.map(e => e.key -> e.label)).distinct
    Seq(
      "| contender | threads | score | 95% interval | error (JMH 99.9%) | unit | ratio to weft | published, other hardware |" +
        extras.map((_, label) => s" $label |").mkString,
      "|---|---:|---:|---:|---:|---|---:|---:|" + extras.map(_ => "---:|").mkString
    ) ++ ordered(rows).map { r =>
      val pub = published.get((r.contender, r.threads)).fold("")(p =>
        s"${Format.number(p.score)} ${p.unit}"
      )
      val score = r.score.fold("**FAILED**")(Format.number)
      val error = r.error.fold("")(e => "± " + Format.number(e))
      val interval = r.interval.filterNot(_.pointOnly).fold("")(i =>
        s"${Format.number(i.low)} to ${Format.number(i.high)}"
      )
      val ratio = r.ratioToWeft.fold(if r.contender == Workloads.Baseline || r.failed then ""
      else "n/a")(Format.factor)
      val name = if w.isShownOnly(r.contender) then s"${r.contender} (shown, not compared)"
      else r.contender
      val extra = extras.map((k, _) =>
        r.extras.find(_.key == k).fold(" |")(e => s" ${Format.number(e.value)} |")
      ).mkString
      s"| $name | ${r.threads} | $score | $interval | $error | ${r.unit} | $ratio | $pub |$extra"
    }

  private def section(
      mode: RunMode,
      w: Workload,
      rows: Seq[Row],
      leftOut: Seq[LeftOut]
  ): Seq[String] =
    val params = rows.groupBy(jmhFlags).toSeq.sortBy(_._2.map(_.threads).min).map { (flags, rs) =>
      val threads = rs.map(_.threads).distinct.sorted.mkString(", ")
      val modules = rs.map(param(_, "module")).distinct.mkString(", ")
      s"`$flags`, threads (-t): $threads; module: $modules"
    }
    val failures = rows.filter(_.failed)
    val weftPresent = rows.exists(_.contender == Workloads.Baseline)
    Seq(
      "",
      s"## ${w.id}: ${w.title}",
      "",
      s"- seed: ${w.seed}",
      s"- thread setup: ${w.threadSetup}"
    ) ++
      params.map(p => s"- parameters: $p") ++
      (if w.notes.nonEmpty then Seq(s"- notes: ${w.notes}") else Nil) ++
      LeftOut.sectionLine(leftOut, w) ++
      (if !weftPresent then Seq("- **no weft contender in this run**: ratios are not available.")
       else Nil) ++
      Seq("") ++ table(w, rows) ++
      (if failures.isEmpty then Nil
       else
         Seq("", "Failed:") ++ failures.map(r =>
           s"- `${r.contender}` at ${threadsText(r.threads)}: ${r.failure.getOrElse("?")}"
         )
      ) ++
      targets(mode, w, rows) ++ publishedTable(w) ++
      Seq("", s"![${w.id}](${w.id}.png)")

  private def targets(mode: RunMode, w: Workload, rows: Seq[Row]): Seq[String] =
    val checked = Targets.check(w, rows)
    if checked.isEmpty then Nil
    else if mode == RunMode.Smoke then
      Seq("", "Targets (not checked in a smoke run):") ++ w.targets.map(t =>
        s"- ${Targets.describe(t, w.unit)}"
      )
    else
      Seq("", "Targets:") ++ checked.map { (t, threads, v) =>
        val mark = if v.outcome == Outcome.Met then v.label else s"**${v.label}**"
        s"- $mark at ${threadsText(threads)}: ${Targets.describe(t, w.unit)}; ${v.detail}"
      }

  private def publishedTable(w: Workload): Seq[String] =
    if w.published.isEmpty then Nil
    else
      Seq(
        "",
        s"Published, other hardware (${w.publishedSource}):",
        "",
        "| seed's contender | threads | score | unit | ours |",
        "|---|---:|---:|---|---|"
      ) ++
        w.published.map(p =>
          s"| ${p.label} | ${p.threads} | ${Format.number(p.score)} | ${p.unit} | ${p.ours.fold("")(_.id)} |"
        )

  /** The whole `REPORT.md`; `leftOut` is what quick mode left out (listed, never FAILED). */
  def render(
      info: RunInfo,
      workloads: Seq[Workload],
      rows: Seq[Row],
      skipped: Seq[(Workload, String)],
      leftOut: Seq[LeftOut] = Nil
  ): String =
    val measured = workloads.filter(w => rows.exists(_.workload == w.id))
    (header(info) ++ Overview.howToRead ++
      Overview.render(info.mode, workloads, rows, skipped, leftOut) ++
      measured.flatMap(w => section(info.mode, w, rows.filter(_.workload == w.id), leftOut)))
      .mkString("", "\n", "\n")
