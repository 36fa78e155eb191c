package weft.shootout

/**
 * The rerun check of `shootout --repeat N`: for every target and thread count, how often each
 * verdict came out over the runs. A target is stable when every run that decided it (MET or
 * MISSED) decided it the same way; INCONCLUSIVE runs do not contradict a decision, they only
 * fail to make one.
 */
object Repeat:

  /** A target's key: workload, thread count, the target in words. */
  type Key = (String, Int, String)

  /** One run's verdict of a target: its label and weft's speedup with its interval (or ""). */
  final case class Run(label: String, speedup: String = "")

  /**
   * One target at one thread count: its verdict labels in run order, and each run's speedup
   * (so that a reader sees how far each run was from the limit, not only which side).
   */
  final case class Tally(
      workload: String,
      threads: Int,
      target: String,
      labels: Seq[String],
      speedups: Seq[String] = Nil
  ):
    /** How many runs gave `label`. */
    def count(label: String): Int = labels.count(_ == label)

    /** MET in one run and MISSED in another. */
    def flipped: Boolean = count("MET") > 0 && count("MISSED") > 0

  /** The verdicts of one run, as the rerun check keys them. */
  def verdicts(workloads: Seq[Workload], rows: Seq[Row]): Seq[(Key, Run)] =
    workloads.flatMap(w =>
      Targets.check(w, rows).map((t, threads, v) =>
        val speedup = v.comparison.fold("")(c =>
          Targets.range(c.speedup.point, c.speedup.low, c.speedup.high, c.speedup.pointOnly)
        )
        (w.id, threads, Targets.describe(t, w.unit)) -> Run(v.label, speedup)
      )
    )

  /** The tallies of several runs, in the order targets first appeared. */
  def tally(runs: Seq[Seq[(Key, Run)]]): Seq[Tally] =
    val keys = runs.flatten.map(_._1).distinct
    keys.map { k =>
      val mine = runs.map(run => run.find(_._1 == k).fold(Run("ABSENT"))(_._2))
      Tally(k._1, k._2, k._3, mine.map(_.label), mine.map(_.speedup))
    }

  /** The `REPORT.md` section of the check. */
  def render(tallies: Seq[Tally], runs: Int): Seq[String] =
    val flipped = tallies.filter(_.flipped)
    Seq(
      "",
      s"## Rerun check: the suite run $runs times",
      "",
      if flipped.isEmpty then
        "No target was MET in one run and MISSED in another."
      else
        s"**${flipped.size} target(s) were MET in one run and MISSED in another**: their " +
          "verdicts do not hold; the intervals were too narrow for the run-to-run changes."
      ,
      "",
      "| workload | threads | target | MET | MISSED | INCONCLUSIVE | other | runs in order | holds | weft's speedup per run |",
      "|---|---:|---|---:|---:|---:|---:|---|---|---|"
    ) ++ tallies.map { t =>
      val other = t.labels.size - t.count("MET") - t.count("MISSED") - t.count("INCONCLUSIVE")
      val holds = if t.flipped then "**no**" else "yes"
      val speedups = t.speedups.filter(_.nonEmpty).mkString("; ")
      s"| ${t.workload} | ${t.threads} | ${t.target} | ${t.count("MET")} | ${t.count("MISSED")} | " +
        s"${t.count("INCONCLUSIVE")} | $other | ${t.labels.mkString(", ")} | $holds | $speedups |"
    }

  /** The check as JSON (`repeat.json`). */
  def json(tallies: Seq[Tally]): String =
    ujson.write(
      ujson.Arr.from(tallies.map(t =>
        ujson.Obj(
          "workload" -> t.workload,
          "threads" -> t.threads,
          "target" -> t.target,
          "verdicts" -> ujson.Arr.from(t.labels.map(ujson.Str(_))),
          "speedups" -> ujson.Arr.from(t.speedups.map(ujson.Str(_))),
          "flipped" -> t.flipped
        )
      )),
      indent = 2
    )
