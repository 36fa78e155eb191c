package weft.shootout

import java.io.File

/**
 * The command line of [[Main]].
 *
 * @param only
 *   the workload ids of `--only <id>[,<id>...]`; empty means every workload. A workload named
 *   here runs in quick mode even when it is marked `notInQuick` ([[Plan.make]])
 * @param out
 *   where the report goes, `<root>/reports/latest` unless `--out <dir>`
 * @param repeat
 *   how many times to run the suite (`--repeat N`); above 1 the report ends with the rerun check
 */
final case class Options(
    config: File,
    mode: RunMode,
    only: Seq[String],
    out: Option[File],
    repeat: Int = 1
):
  /** The workloads selected, in report order. */
  def workloads: Seq[Workload] =
    if only.isEmpty then Workloads.all else Workloads.all.filter(w => only.contains(w.id))

  /**
   * The jobs for the selected workloads, given each module's benchmark listing and classpath:
   * a workload `--only` names runs even when quick mode leaves it out ([[Plan.make]]).
   */
  def plan(listings: Module => Seq[String], classpath: Module => String): Plan =
    Plan.make(workloads, mode, listings, classpath, only.toSet)

/** Parsing the command line. */
object Options:

  /** The usage text. */
  val usage: String =
    "usage: weft.shootout.Main --config <run.properties> [--quick | --full | --smoke] " +
      "[--only <workload-id>[,<workload-id>...]] [--repeat <n>] [--out <dir>]\n" +
      "  --quick (the default) leaves some workloads and contenders out; --full and --smoke " +
      "measure them all.\n  --only runs the workloads it names even when quick mode leaves " +
      "them out; contenders quick mode leaves out stay out (use --full)."

  /** Parses `args`, or returns the reason it cannot. */
  def parse(args: Seq[String]): Either[String, Options] =
    @annotation.tailrec
    def loop(rest: List[String], acc: Options): Either[String, Options] = rest match
      case Nil               => Right(acc)
      case "--quick" :: tail => loop(tail, acc.copy(mode = RunMode.Quick))
      case "--full" :: tail  => loop(tail, acc.copy(mode = RunMode.Full))
      case "--smoke" :: tail => loop(tail, acc.copy(mode = RunMode.Smoke))
      case "--only" :: ids :: tail =>
        val wanted = ids.split(',').map(_.trim).filter(_.nonEmpty).toSeq
        wanted.find(id => Workloads.byId(id).isEmpty) match
          case Some(id) =>
            Left(s"unknown workload '$id'; known: ${Workloads.all.map(_.id).mkString(", ")}")
          case None => loop(tail, acc.copy(only = acc.only ++ wanted))
      case "--repeat" :: n :: tail =>
        n.toIntOption.filter(_ >= 1) match
          case Some(k) => loop(tail, acc.copy(repeat = k))
          case None    => Left(s"--repeat needs a count >= 1, got '$n'\n$usage")
      case "--config" :: f :: tail => loop(tail, acc.copy(config = File(f)))
      case "--out" :: d :: tail    => loop(tail, acc.copy(out = Some(File(d))))
      case other :: _              => Left(s"unknown or incomplete argument '$other'\n$usage")
    loop(args.toList, Options(File(""), RunMode.Quick, Nil, None)).flatMap { o =>
      if o.config.getPath.isEmpty then
        Left(s"--config is required (the sbt command passes it)\n$usage")
      else Right(o)
    }
