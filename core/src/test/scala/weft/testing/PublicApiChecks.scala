package weft.testing

import java.nio.file.{Files, Path, Paths}
import scala.jdk.CollectionConverters.*

/**
 * Keeps a module's public API deliberate: its listing (see [[PublicApi]]) must equal
 * `docs/api/<module>.txt`, and its top-level names must be those the README's API section
 * lists for the module's packages. A change to the public surface therefore shows in review as
 * a change to those two files. `WEFT_API_WRITE=1` rewrites `docs/api/<module>.txt` (the README is
 * always edited by hand).
 *
 * @param module
 *   the module's directory name (`core`, `io`, `memcached`)
 * @param anchor
 *   any class of the module's main code, to find its compiled classes
 */
abstract class PublicApiChecks(module: String, anchor: Class[?]) extends munit.FunSuite:

  /** The repository's root: the nearest directory above the working one with `docs/api`. */
  val root: Path =
    Iterator.iterate(Paths.get("").toAbsolutePath)(_.getParent).takeWhile(_ != null)
      .find(d => Files.isDirectory(d.resolve("docs").resolve("api")))
      .getOrElse(fail("no docs/api directory above the working directory"))

  // Reading every class's TASTy takes tens of seconds on a loaded machine; it cannot hang.
  override val munitTimeout: scala.concurrent.duration.Duration =
    scala.concurrent.duration.Duration(3, "min")

  private lazy val all: Seq[String] = PublicApi.listing(PublicApi.classesDirOf(anchor))

  private def isInternal(line: String): Boolean =
    line.takeWhile(_ != ' ').split('.').contains("internal")

  /** The public API: every listed definition outside `weft.internal`. */
  lazy val listing: Seq[String] = all.filterNot(isInternal)

  /** The internal API: the public definitions under `weft.internal` (see `InternalApi`). */
  lazy val internalListing: Seq[String] = all.filter(isInternal)

  private lazy val boundaries =
    ApiBoundaries.inspect(PublicApi.classesDirOf(anchor), anchor.getPackageName)

  /** Compares `lines` with the recorded `file` (rewritten first under `WEFT_API_WRITE=1`). */
  private def checkRecorded(file: Path, lines: Seq[String], what: String): Unit =
    val text = lines.mkString("", "\n", "\n")
    if sys.env.get("WEFT_API_WRITE").contains("1") then
      if lines.nonEmpty then Files.writeString(file, text) else Files.deleteIfExists(file): Unit
    val recorded = if Files.exists(file) then Files.readString(file) else ""
    val expected = recorded.linesIterator.toSet
    val actual = lines.toSet
    val added = (actual -- expected).toSeq.sorted
    val removed = (expected -- actual).toSeq.sorted
    assert(
      added.isEmpty && removed.isEmpty,
      s"$what changed; new: ${added.mkString("\n  ", "\n  ", "")}\nremoved: " +
        s"${removed.mkString("\n  ", "\n  ", "")}\n(run with WEFT_API_WRITE=1 to record it)"
    )

  test(s"the public API of $module is the one in docs/api/$module.txt"):
    checkRecorded(root.resolve(s"docs/api/$module.txt"), listing, "public API")

  test(s"the internal API of $module is the one in docs/api/$module-internal.txt"):
    checkRecorded(root.resolve(s"docs/api/$module-internal.txt"), internalListing, "internal API")

  test(s"no public signature of $module names an internal type"):
    assertEquals(boundaries.leaks, Nil)

  test(s"what is public under weft.internal in $module is marked @InternalApi"):
    assertEquals(boundaries.unmarked, Nil)

  test(s"$module uses nothing private[weft] of core (only its public and internal API)"):
    assertEquals(boundaries.privateUses, Nil)

  test(s"the README's API section lists the top-level names of $module"):
    val readme = Files.readAllLines(root.resolve("README.md")).asScala
    val section = readme.dropWhile(_ != "<!-- api -->").drop(1).takeWhile(_ != "<!-- /api -->")
    assert(section.nonEmpty, "README.md has no <!-- api --> ... <!-- /api --> section")
    val top = PublicApi.topLevel(listing)
    val packages = top.map(n => n.substring(0, n.lastIndexOf('.'))).toSet
    val listed = section.toSeq.flatMap:
      case s"- `$pkg`: $names" if packages(pkg) =>
        "`([^`]+)`".r.findAllMatchIn(names).map(m => s"$pkg.${m.group(1)}").toSeq
      case _ => Nil
    assertEquals(listed.sorted, top, "README.md's API section (between <!-- api --> markers)")
