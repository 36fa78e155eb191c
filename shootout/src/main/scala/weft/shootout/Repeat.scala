package weft.shootout

/**
 * The rerun check of `shootout --repeat N`: for every target and thread count, how often each
 * verdict came out over the runs. A target is stable when every run that decided it (MET or
 * MISSED) decided it the same way; INCONCLUSIVE runs do not contradict a decision, they only
 * fail to make one.
 */
object Repeat:

  /** One target at one thread count, and its verdict labels in run order. */
  final case class Tally(workload: String, threads: Int, target: String, labels: Seq[String]):
    /** How many runs gave `label`. */
    def count(label: String): Int = labels.count(_ == label)

    /** MET in one run and MISSED in another. */
    def flipped: Boolean = count("MET") > 0 && count("MISSED") > 0

  /** The verdicts of one run, as the rerun check keys them. */
  def verdicts(workloads: Seq[Workload], rows: Seq[Row]): Seq[((String, Int, String), String)] =
    workloads.flatMap(w =>
      Targets.check(w, rows).map((t, threads, v) =>
        (w.id, threads, Targets.describe(t, w.unit)) -> v.label
      )
    )

  /** The tallies of several runs, in the order targets first appeared. */
  def tally(runs: Seq[Seq[((String, Int, String), String)]]): Seq[Tally] =
    val keys = runs.flatten.map(_._1).distinct
    keys.map { k =>
      val labels = runs.map(run => run.find(_._1 == k).fold("ABSENT")(_._2))
      Tally(k._1, k._2, k._3, labels)
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
      "| workload | threads | target | MET | MISSED | INCONCLUSIVE | other | runs in order | holds |",
      "|---|---:|---|---:|---:|---:|---:|---|---|"
    ) ++ tallies.map { t =>
      val other = t.labels.size - t.count("MET") - t.count("MISSED") - t.count("INCONCLUSIVE")
      val holds = if t.flipped then "**no**" else "yes"
      s"| ${t.workload} | ${t.threads} | ${t.target} | ${t.count("MET")} | ${t.count("MISSED")} | " +
        s"${t.count("INCONCLUSIVE")} | $other | ${t.labels.mkString(", ")} | $holds |"
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
          "flipped" -> t.flipped
        )
      )),
      indent = 2
    )
