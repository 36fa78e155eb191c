package weft.shootout

/**
 * What quick mode left out of a workload that `--full` and `--smoke` measure: the whole
 * workload when `contenders` is empty, else those contenders (benchmark methods). The report
 * lists it in the overview and in the workload's section, so an absence is not read as a
 * failure; `PlanSuite` and `QuickModeSuite` check the selection and the lines.
 */
final case class LeftOut(workload: Workload, contenders: Seq[String]):

  /** Whether the whole workload was left out. */
  def whole: Boolean = contenders.isEmpty

  /** What was left out, for a line of the report: `` `memcached-value-10b` `` or its rows. */
  def describe: String =
    if whole then s"`${workload.id}`"
    else s"`${workload.id}` rows ${contenders.map(c => s"`$c`").mkString(", ")}"

/** The report's lines for what quick mode left out. */
object LeftOut:

  /** The overview's line, or nothing when nothing was left out. */
  def overviewLine(leftOut: Seq[LeftOut]): Seq[String] =
    if leftOut.isEmpty then Nil
    else
      Seq(
        s"- left out of this quick run, measured by `--full` (and `--smoke`): " +
          leftOut.map(_.describe).mkString("; ") + "."
      )

  /** The line in a measured workload's section when quick mode left some of its rows out. */
  def sectionLine(leftOut: Seq[LeftOut], w: Workload): Seq[String] =
    leftOut.filter(l => l.workload.id == w.id && !l.whole).map(l =>
      s"- left out of this quick run (`--full` measures them): " +
        l.contenders.map(c => s"`$c`").mkString(", ") + "."
    )
