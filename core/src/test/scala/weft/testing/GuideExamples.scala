package weft.testing

import java.nio.file.{Files, Path, Paths}
import scala.jdk.CollectionConverters.*

/**
 * Keeps the user guide's examples true: every ```scala block of the pages of `docs/guide` must be, line
 * for line, a region of a test that runs it.
 *
 * A block starts with the line `// example: <id>`. A region is the code between the lines
 * `// example: <id>` and `// end` of a Scala file in `<module>/src/test/scala/weft/guide`, inside
 * a munit test that runs it and asserts what the page says it does. Both are compared after
 * removing their common indentation and trailing spaces. [[problems]] reports a block with no id,
 * an id used twice (by blocks, or by regions), a block whose region is missing or differs, a
 * region no page shows, and an unterminated block or region.
 */
object GuideExamples:

  /** A ```scala block of a page, or a region of a source: its id, where, and its code lines. */
  final case class Snippet(id: String, where: String, code: Seq[String])

  private val ExampleLine = """\s*// example: (\S+)\s*""".r

  /** The ```scala blocks of the page `name` (an unterminated or unnamed block is a problem). */
  def blocks(name: String, text: String): (Seq[Snippet], Seq[String]) =
    val found = spans(text, l => Option.when(l.trim == "```scala")(""), _.trim == "```")
    val problems = Vector.newBuilder[String]
    val snippets = found.flatMap: (_, line, code, terminated) =>
      if !terminated then problems += s"$name:$line: unterminated ```scala block"
      code.headOption match
        case Some(ExampleLine(id)) => Some(Snippet(id, s"$name:$line", code.drop(1)))
        case _ =>
          problems += s"$name:$line: a ```scala block must start with `// example: <id>`"
          None
    (snippets, problems.result())

  /** The example regions of the source `name` (an unterminated region is a problem). */
  def regions(name: String, text: String): (Seq[Snippet], Seq[String]) =
    val found = spans(
      text,
      { case ExampleLine(id) => Some(id); case _ => None },
      l => l.trim == "// end" || ExampleLine.matches(l)
    )
    val problems = found.collect:
      case (id, line, _, false) =>
        s"$name:$line: example region '$id' has no `// end` line before the next region or " +
          "the end of the file"
    (found.map((id, line, code, _) => Snippet(id, s"$name:$line", code)), problems)

  /**
   * The spans of `text` that start at a line `opens` names and end before the next line that
   * `closes` (or at the end of the text): each as its name, the 1-based number of its opening
   * line, its lines (see [[dedent]]), and whether the closing line is a proper end (a `// end`,
   * a closing fence) rather than the next opening or the end of the text.
   */
  private def spans(
      text: String,
      opens: String => Option[String],
      closes: String => Boolean
  ): Seq[(String, Int, Seq[String], Boolean)] =
    val lines = text.linesIterator.toVector
    val found = Vector.newBuilder[(String, Int, Seq[String], Boolean)]
    var i = 0
    while i < lines.length do
      opens(lines(i)) match
        case Some(id) =>
          var end = i + 1
          while end < lines.length && !closes(lines(end)) do end += 1
          val proper = end < lines.length && opens(lines(end)).isEmpty
          found += ((id, i + 1, dedent(lines.slice(i + 1, end)), proper))
          i = if proper then end + 1 else end
        case None => i += 1
    found.result()

  /** Every problem of these pages and sources, each `(name, text)`; empty when all agree. */
  def problems(pages: Seq[(String, String)], sources: Seq[(String, String)]): Seq[String] =
    val (bs, pageProblems) = pages.map(blocks).unzip
    val (rs, sourceProblems) = sources.map(regions).unzip
    val allBlocks = bs.flatten
    val allRegions = rs.flatten
    def duplicates(ss: Seq[Snippet], what: String) =
      ss.groupBy(_.id).toSeq.sortBy(_._1).collect:
        case (id, group) if group.size > 1 =>
          s"$what '$id' appears ${group.size} times: ${group.map(_.where).mkString(", ")}"
    val byId = allRegions.groupBy(_.id).view.mapValues(_.head).toMap
    val blockIds = allBlocks.map(_.id).toSet
    val mismatches = allBlocks.flatMap: b =>
      byId.get(b.id) match
        case None => Seq(s"${b.where}: no test source holds the region '// example: ${b.id}'")
        case Some(r) if r.code != b.code =>
          Seq(s"${b.where}: block '${b.id}' differs from its region at ${r.where}:\n" +
            diff(b.code, r.code))
        case _ => Nil
    val unused = allRegions.filterNot(r => blockIds(r.id)).map: r =>
      s"${r.where}: region '${r.id}' is shown by no guide page"
    pageProblems.flatten ++ sourceProblems.flatten ++ duplicates(allBlocks, "block") ++
      duplicates(allRegions, "region") ++ mismatches ++ unused

  /** The first differing line of `page` and `source`, both shown. */
  private def diff(page: Seq[String], source: Seq[String]): String =
    val n = page.zipAll(source, "<none>", "<none>").indexWhere((a, b) => a != b)
    val line = if n < 0 then 0 else n
    s"  line ${line + 1} of the example:\n    page:   ${page.lift(line).getOrElse("<none>")}\n" +
      s"    source: ${source.lift(line).getOrElse("<none>")}"

  /** `lines` without trailing spaces and without the indentation common to non-blank lines. */
  def dedent(lines: Seq[String]): Seq[String] =
    val stripped = lines.map(_.replaceAll("\\s+$", ""))
    val indents = stripped.filter(_.nonEmpty).map(_.takeWhile(_ == ' ').length)
    val common = if indents.isEmpty then 0 else indents.min
    stripped.map(l => if l.isEmpty then l else l.substring(common))

  /** The repository's root: the nearest directory above the working one with `docs/guide`. */
  def root: Path =
    Iterator.iterate(Paths.get("").toAbsolutePath)(_.getParent).takeWhile(_ != null)
      .find(d => Files.isDirectory(d.resolve("docs").resolve("guide")))
      .getOrElse(throw AssertionError("no docs/guide directory above the working directory"))

  /** Every guide page, as `(path from the root, text)`. */
  def pages(root: Path): Seq[(String, String)] =
    filesIn(root, root.resolve("docs").resolve("guide"), ".md")

  /** Every Scala file of a `src/test/scala/weft/guide` directory of a module, as `(path, text)`. */
  def sources(root: Path): Seq[(String, String)] =
    val modules = Files.list(root).iterator.asScala.filter(Files.isDirectory(_)).toVector
    modules.flatMap: m =>
      filesIn(root, m.resolve("src/test/scala/weft/guide"), ".scala")

  private def filesIn(root: Path, dir: Path, suffix: String): Seq[(String, String)] =
    if !Files.isDirectory(dir) then Nil
    else
      Files.list(dir).iterator.asScala.filter(_.toString.endsWith(suffix)).toVector.sorted.map: p =>
        (root.relativize(p).toString, Files.readString(p))
