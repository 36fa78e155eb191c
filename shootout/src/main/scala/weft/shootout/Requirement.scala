package weft.shootout

import java.io.File

/**
 * An external program a workload needs (the memcached server): without it the workload is
 * skipped, with `howToInstall` in the report, and never reported as a pass.
 *
 * @param program
 *   the executable's file name, looked up in `dirs` then on the `PATH`
 * @param howToInstall
 *   what the report tells the reader to do
 */
final case class Requirement(
    program: String,
    howToInstall: String,
    dirs: Seq[String] = Seq("/usr/bin", "/usr/local/bin")
):
  /** The executable, if installed. */
  def find(path: String = sys.env.getOrElse("PATH", "")): Option[File] =
    (dirs ++ path.split(File.pathSeparatorChar).filter(_.nonEmpty))
      .map(d => File(d, program))
      .find(_.canExecute)

  /** Why the workload is skipped, if the program is missing. */
  def missing(path: String = sys.env.getOrElse("PATH", "")): Option[String] =
    Option.when(find(path).isEmpty)(s"`$program` is not installed: $howToInstall")
