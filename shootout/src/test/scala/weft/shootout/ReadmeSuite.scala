package weft.shootout

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

/** The shootout README's tables say what the registry says ([[ReadmeTables]]). */
class ReadmeSuite extends munit.FunSuite:

  private def readme: String =
    val path = Option(System.getProperty("weft.shootout.readme")).getOrElse(
      throw IllegalStateException("weft.shootout.readme is not set: run the tests through sbt")
    )
    Files.readString(Path.of(path), StandardCharsets.UTF_8)

  test("the README's generated tables are the registry's"):
    val text = readme
    // compared table by table, so a failure shows the table that drifted
    for (name, table) <- ReadmeTables.tables() do
      val start = text.indexOf(ReadmeTables.begin(name))
      assert(start >= 0, s"the README lost its `${ReadmeTables.begin(name)}` line")
      val body =
        text.substring(text.indexOf('\n', start) + 1, text.indexOf(ReadmeTables.End, start))
      assertEquals(
        body.stripSuffix("\n"),
        table,
        s"the README's $name table differs from the registry: " +
          "./sbtw \"shootout/runMain weft.shootout.ReadmeTables shootout/README.md\""
      )

  test("rendering replaces a table between its markers and keeps the rest"):
    val text = s"a\n${ReadmeTables.begin("t")}\nold\n${ReadmeTables.End}\nb\n"
    assertEquals(
      ReadmeTables.render(text, Seq("t" -> "new")),
      s"a\n${ReadmeTables.begin("t")}\nnew\n${ReadmeTables.End}\nb\n"
    )
    intercept[IllegalArgumentException](ReadmeTables.render("a\n", Seq("t" -> "new")))

  test("a workload that leaves something out of quick mode says why, and only then"):
    for w <- Workloads.all do
      val leaves = w.notInQuick || w.notInQuickContenders.nonEmpty
      assertEquals(w.quickWhy.nonEmpty, leaves, w.id)

  test("the quick table names every workload and row quick mode leaves out"):
    val table = ReadmeTables.quickTable(Workloads.all)
    for w <- Workloads.all do
      if w.notInQuick then assert(table.contains(s"| `${w.id}` |"), w.id)
      for c <- w.notInQuickContenders do
        assert(table.linesIterator.exists(l =>
          l.contains(s"`${w.id}`") && l.contains(s"`${c.id}`")
        ))
