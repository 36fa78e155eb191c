package weft.shootout

import java.nio.file.Files

class ChartsSuite extends munit.FunSuite:

  test("renders a workload chart to a non-empty PNG, failed rows included"):
    val dir = Files.createTempDirectory("weft-charts")
    val file = dir.resolve("compose-3.png").toFile
    Charts.writePng(Workloads.compose3, Fixtures.compose3Rows, file)
    assert(file.length > 0, s"${file} is empty")
    val header = Files.readAllBytes(file.toPath).take(4).toSeq
    assertEquals(header, Seq(0x89, 'P', 'N', 'G').map(_.toByte))

  test("a log axis only when positive values span more than 100x; plain tick labels"):
    assert(!Charts.wantsLog(Seq(10, 500, 999)))
    assert(Charts.wantsLog(Seq(0, 10, 5000)))
    assert(!Charts.wantsLog(Nil))
    assertEquals(Charts.tick(100000), "100,000")
    assertEquals(Charts.tick(2.5), "2.5")
    assertEquals(Charts.tick(0.0123), "0.012")
    assertEquals(Charts.label("weftInScope"), "» weftInScope")
    assertEquals(Charts.label("ox"), "ox")

  test("the overview chart renders targets, best peers and unbounded intervals"):
    val w = Workloads.compose3.copy(threads = Seq(1))
    def row(c: String, low: Double, high: Double) = Fixtures.intervalRow(w, c, low, high, 1)
    val h = Workloads.handoffIdeal
    val rows = Seq(row("weft", -10, 110), row("asyncAwait", 95, 105)) ++
      Seq(row("weft", 90, 110), row("ideal", 1, 2)).map(_.copy(workload = h.id))
    val lines = Overview.lines(Seq(w, h), rows, checkTargets = true)
    assertEquals(lines.map(_.label), Seq("compose-3 vs asyncAwait", "handoff-ideal vs ideal"))
    val dir = Files.createTempDirectory("weft-charts")
    val file = dir.resolve("overview.png").toFile
    Charts.writePng(Charts.overview(lines), file)
    assert(file.length > 0)
