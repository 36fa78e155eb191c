package weft

import java.nio.file.Files
import weft.testing.GuideExamples

/**
 * The user guide (the pages of `docs/guide`) shows only code that a test runs: see [[GuideExamples]].
 * The tests below the first check that the checker finds each kind of disagreement.
 */
class GuideSuite extends munit.FunSuite:

  test("every example of the guide is a region of a test that runs it, and every region is shown"):
    val root = GuideExamples.root
    val pages = GuideExamples.pages(root)
    val sources = GuideExamples.sources(root)
    assert(pages.size >= 10, s"guide pages found: ${pages.map(_._1)}")
    assert(sources.size >= 3, s"example sources found: ${sources.map(_._1)}")
    val problems = GuideExamples.problems(pages, sources)
    assert(problems.isEmpty, problems.mkString("the guide disagrees with its tests:\n", "\n", ""))

  test("the guide's index and the README link every guide page, and only pages that exist"):
    val root = GuideExamples.root
    val pages = GuideExamples.pages(root).map(_._1.stripPrefix("docs/guide/")).toSet - "README.md"
    def links(file: String, prefix: String) =
      """\]\(([^)#]+\.md)""".r.findAllMatchIn(Files.readString(root.resolve(file)))
        .map(_.group(1)).filter(_.startsWith(prefix)).map(_.stripPrefix(prefix)).toSet
    assertEquals(links("docs/guide/README.md", ""), pages, "docs/guide/README.md")
    assertEquals(links("README.md", "docs/guide/") - "README.md", pages, "README.md")
    for p <- pages do
      val broken = links(s"docs/guide/$p", "").filterNot(l => l.contains('/') || pages(l))
      assert(broken.isEmpty, s"docs/guide/$p links to missing pages: $broken")

  private def page(code: String*): String =
    ("# A page" +: "" +: "```scala" +: code :+ "```" :+ "text after").mkString("\n")

  private def source(code: String*): String =
    ("class S extends munit.FunSuite:" +: "  test(\"t\"):" +: code.map("    " + _)).mkString("\n")

  private val agreeing = (
    Seq("p.md" -> page("// example: a", "val x = 1", "  x + 1")),
    Seq("S.scala" -> source("// example: a", "val x = 1", "  x + 1", "// end", "assert(true)"))
  )

  private def problemsOf(pages: Seq[(String, String)], sources: Seq[(String, String)]) =
    GuideExamples.problems(pages, sources)

  test("the checker accepts a block equal to its region (indentation aside)"):
    assertEquals(problemsOf(agreeing._1, agreeing._2), Nil)

  test("the checker reports a block that differs from its region"):
    val p = Seq("p.md" -> page("// example: a", "val x = 2", "  x + 1"))
    val found = problemsOf(p, agreeing._2)
    assert(found.exists(_.contains("block 'a' differs")), found)
    assert(found.exists(_.contains("val x = 2")), found)

  test("the checker reports a block with no id, and a block whose region is missing"):
    val p = Seq("p.md" -> page("val y = 1"), "q.md" -> page("// example: b", "val x = 1"))
    val found = problemsOf(p ++ agreeing._1, agreeing._2)
    assert(found.exists(_.contains("p.md:3: a ```scala block must start with")), found)
    assert(found.exists(_.contains("q.md:3: no test source holds the region")), found)

  test("the checker reports an id used twice, and a region no page shows"):
    val s = agreeing._2 :+ ("T.scala" -> source("// example: a", "val x = 1", "  x + 1", "// end"))
    val unused = "U.scala" -> source("// example: lonely", "()", "// end")
    val found = problemsOf(agreeing._1 ++ agreeing._1, s :+ unused)
    assert(found.exists(_.startsWith("block 'a' appears 2 times")), found)
    assert(found.exists(_.startsWith("region 'a' appears 2 times")), found)
    assert(found.exists(_.contains("region 'lonely' is shown by no guide page")), found)

  test("the checker reports an unterminated region and an unterminated block"):
    val s = Seq("S.scala" -> source("// example: a", "val x = 1", "  x + 1"))
    val p = Seq("p.md" -> "```scala\n// example: a\nval x = 1\n  x + 1")
    val found = problemsOf(p, s)
    assert(found.exists(_.contains("region 'a' has no `// end` line")), found)
    assert(found.exists(_.contains("unterminated ```scala block")), found)
