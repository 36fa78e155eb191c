package weft

import java.nio.file.Files
import weft.testing.GuideExamples

/**
 * The README's tour is the guide's (which `weft.guide.TourGuideSuite` runs and `GuideSuite`
 * checks), line for line.
 */
class ReadmeSuite extends munit.FunSuite:

  test("README's tour is the tour of docs/guide/README.md"):
    val root = GuideExamples.root
    val guide =
      GuideExamples.blocks("guide", Files.readString(root.resolve("docs/guide/README.md")))
    val tour = guide._1.find(_.id == "tour").getOrElse(fail("docs/guide/README.md has no tour"))
    val readme = Files.readString(root.resolve("README.md")).linesIterator.toVector
    val start = readme.indexOf("```scala")
    assert(start >= 0, "README.md has no ```scala block")
    val block = readme.drop(start + 1).takeWhile(_ != "```")
    assertEquals(block, tour.code.toVector, "README.md's first ```scala block is not the tour")
