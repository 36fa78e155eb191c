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
