package weft.testing

import java.nio.file.{Files, Path}
import scala.jdk.CollectionConverters.*
import scala.util.Using

/**
 * What the ADRs of `docs/adr` name as code, and the names the code holds: the helpers of
 * `weft.AdrIdentifiersSuite`, which keeps the ADRs from naming things that no longer exist.
 */
object AdrNames:

  /**
   * An identifier an ADR names in backticks: the ADR's file name, the text between the backticks,
   * and the identifier's dotted path (`weft.runtime.Fiber` is `Seq("weft", "runtime", "Fiber")`).
   */
  final case class Named(adr: String, text: String, path: Seq[String]):
    /** The dotted path as written. */
    def name: String = path.mkString(".")

  // An identifier or a dotted path, optionally followed by ONE argument or type list, and by a
  // block, that end the span: `Foo`, `Foo.bar`, `read()`, `Retry(0)`, `Async.await(src)`,
  // `Foo[T]`, `Future { ... }`, `where(v) { body }`. Anything else between backticks is not taken
  // for a name: a command or an sbt setting (spaces), a flag (`-Xasync`), a path
  // (`docs/perf/core.md`), a number, an expression (`c -> c + 1`).
  private val Identifier =
    """([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?:\(.*\)|\[.*\])?(?: ?\{.*\})?""".r
  // A code span, which may wrap onto the next line (not across a blank line).
  private val Backticked = "`([^`]+)`".r
  private val Word = "[A-Za-z_][A-Za-z0-9_]*".r

  /** The identifiers named in backticks in the text of the ADR `adr`, in order of appearance. */
  def named(adr: String, text: String): Seq[Named] =
    Backticked.findAllMatchIn(text).map(_.group(1)).filterNot(_.contains("\n\n")).toSeq
      .map(_.split("\\s+").mkString(" ").trim)
      .collect:
        case t @ Identifier(path) => Named(adr, t, path.split('.').toSeq)

  /** The repository's ADRs (`docs/adr/NNNN-*.md`), as `(file name, text)`, by number. */
  def adrs(root: Path): Seq[(String, String)] =
    list(root.resolve("docs").resolve("adr"))
      .filter(p => AdrFile.matches(p.getFileName.toString))
      .map(p => (p.getFileName.toString, Files.readString(p)))

  /** An ADR's file name: four digits, a dash, a slug. */
  val AdrFile: scala.util.matching.Regex = """\d{4}-[a-z0-9-]+\.md""".r

  /**
   * The words (identifier-shaped tokens) of each Scala file under a module's `src` tree, main or
   * test, and of the build definition (`build.sbt`, `project/`), which ADRs name for benchmark
   * settings: one set per file, so a dotted path can be required to meet in one file. Files
   * named in `except` are left out: the check's own sources name on purpose what is not there.
   */
  def codeWords(root: Path, except: Set[String]): Seq[Set[String]] =
    val modules = list(root).filter(m => Files.isDirectory(m.resolve("src")))
    val sources = modules.flatMap: m =>
      Using.resource(Files.walk(m.resolve("src"))):
        _.iterator.asScala.filter(_.toString.endsWith(".scala")).toVector
    val build = (root.resolve("build.sbt") +: list(root.resolve("project")))
      .filter(p => Files.isRegularFile(p) && p.toString.matches(".*\\.(scala|sbt)"))
    (sources ++ build).filterNot(p => except(p.getFileName.toString))
      .map(p => Word.findAllIn(Files.readString(p)).toSet)

  /**
   * Whether the code holds `path`: one file holds every part of it as a whole word (`Foo.bar`
   * needs `Foo` and `bar` in one file, which is where `bar` is defined or called on `Foo`).
   */
  def inCode(path: Seq[String], files: Seq[Set[String]]): Boolean =
    files.exists(words => path.forall(words))

  /**
   * Whether the running JDK has `spec`: a class name for `Class.forName`, optionally followed by
   * `#member`, a public field or method of that class.
   */
  def inJdk(spec: String): Boolean =
    val (cls, member) = spec.split('#') match
      case Array(c, m) => (c, Some(m))
      case _           => (spec, None)
    try
      val c = Class.forName(cls, false, getClass.getClassLoader)
      member.forall(m => c.getFields.exists(_.getName == m) || c.getMethods.exists(_.getName == m))
    catch case _: ClassNotFoundException => false

  /**
   * The rows of the ADR index (`docs/adr/README.md`): `(number, linked file)` for each table row
   * that starts with a four-digit number and a linked title.
   */
  def indexRows(readme: String): Seq[(String, String)] =
    IndexRow.findAllMatchIn(readme).map(m => (m.group(1), m.group(2))).toSeq

  private val IndexRow = """(?m)^\| *(\d{4}) *\| *\[[^\]]+\]\(([^)]+)\)""".r

  private def list(dir: Path): Vector[Path] =
    if !Files.isDirectory(dir) then Vector.empty
    else Using.resource(Files.list(dir))(_.iterator.asScala.toVector.sorted)
