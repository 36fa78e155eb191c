package weft.shootout

import java.io.File

/**
 * The command line of [[Main]].
 *
 * @param only
 *   a single workload id, from `--only <id>`
 * @param out
 *   where the report goes, `<root>/reports/latest` unless `--out <dir>`
 */
final case class Options(config: File, mode: RunMode, only: Option[String], out: Option[File])

/** Parsing the command line. */
object Options:

  /** The usage text. */
  val usage: String =
    "usage: weft.shootout.Main --config <run.properties> [--quick | --full | --smoke] [--only <workload-id>] [--out <dir>]"

  /** Parses `args`, or returns the reason it cannot. */
  def parse(args: Seq[String]): Either[String, Options] =
    @annotation.tailrec
    def loop(rest: List[String], acc: Options): Either[String, Options] = rest match
      case Nil               => Right(acc)
      case "--quick" :: tail => loop(tail, acc.copy(mode = RunMode.Quick))
      case "--full" :: tail  => loop(tail, acc.copy(mode = RunMode.Full))
      case "--smoke" :: tail => loop(tail, acc.copy(mode = RunMode.Smoke))
      case "--only" :: id :: tail =>
        if Workloads.byId(id).isEmpty then
          Left(s"unknown workload '$id'; known: ${Workloads.all.map(_.id).mkString(", ")}")
        else loop(tail, acc.copy(only = Some(id)))
      case "--config" :: f :: tail => loop(tail, acc.copy(config = File(f)))
      case "--out" :: d :: tail    => loop(tail, acc.copy(out = Some(File(d))))
      case other :: _              => Left(s"unknown or incomplete argument '$other'\n$usage")
    loop(args.toList, Options(File(""), RunMode.Quick, None, None)).flatMap { o =>
      if o.config.getPath.isEmpty then
        Left(s"--config is required (the sbt command passes it)\n$usage")
      else Right(o)
    }
