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

  lazy val listing: Seq[String] = PublicApi.listing(PublicApi.classesDirOf(anchor))

  test(s"the public API of $module is the one in docs/api/$module.txt"):
    val file = root.resolve(s"docs/api/$module.txt")
    val text = listing.mkString("", "\n", "\n")
    if sys.env.get("WEFT_API_WRITE").contains("1") then Files.writeString(file, text)
    val recorded = if Files.exists(file) then Files.readString(file) else ""
    val expected = recorded.linesIterator.toSet
    val actual = listing.toSet
    val added = (actual -- expected).toSeq.sorted
    val removed = (expected -- actual).toSeq.sorted
    assert(
      added.isEmpty && removed.isEmpty,
      s"public API changed; new: ${added.mkString("\n  ", "\n  ", "")}\nremoved: " +
        s"${removed.mkString("\n  ", "\n  ", "")}\n(run with WEFT_API_WRITE=1 to record it)"
    )

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
