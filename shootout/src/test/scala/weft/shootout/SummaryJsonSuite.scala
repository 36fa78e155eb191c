package weft.shootout

class SummaryJsonSuite extends munit.FunSuite:

  test("summary rows follow the documented schema"):
    val json = ujson.read(SummaryJson.render(Fixtures.compose3Rows)).arr
    assertEquals(json.size, 3)
    val weft = json.find(_("contender").str == "weft").get.obj
    assertEquals(weft("workload").str, "compose-3")
    assertEquals(weft("score").num, 250000.0)
    assertEquals(weft("unit").str, "ns/op")
    assertEquals(weft("higherIsBetter").bool, false)
    assertEquals(weft("failed").bool, false)
    assertEquals(weft("ratioToWeft").num, 1.0)
    assertEquals(weft("params")("threads").num, 3.0)
    assert(!weft.contains("failure"))

  test("a failed benchmark is listed with failed: true and a null score"):
    val ox = ujson.read(SummaryJson.render(Fixtures.compose3Rows)).arr.find(
      _("contender").str == "ox"
    ).get.obj
    assertEquals(ox("failed").bool, true)
    assertEquals(ox("score"), ujson.Null)
    assertEquals(ox("failure").str, "no result from JMH")

  test("the report lists a failed benchmark as FAILED"):
    val info = RunInfo(
      RunMode.Quick,
      java.time.Instant.EPOCH,
      1,
      Machine("cpu", 2, 1L << 34, "os", "jdk", 0.5),
      0.5,
      Seq("ox" -> "1.0.0"),
      None,
      Some("1.37"),
      Nil
    )
    val md = Report.render(
      info,
      Seq(Workloads.compose3),
      Fixtures.compose3Rows,
      Seq(Workloads.handoffIdeal -> "no benchmarks yet")
    )
    assert(md.contains("| ox | 3 | **FAILED** |"), md)
    assert(md.contains("**FAILED**: `compose-3` / `ox` at 3 threads"), md)
    assert(md.contains("skipped `handoff-ideal`: no benchmarks yet"), md)
    assert(md.contains("![compose-3](compose-3.png)"), md)
    assert(md.contains("published, other hardware"), md)
    assert(!md.contains("machine was busy"), md)

  test("the report warns when the load exceeded the cores"):
    val info = Fixtures.quickRunInfo.copy(loadAtEnd = 7.5)
    assert(Report.busy(info).mkString.contains("load average up to 7.50 on 2 cores"))

  test("summary rows carry the interval, and weft's rows the verdicts"):
    val json = ujson.read(SummaryJson.render(Fixtures.compose3Rows, Seq(Workloads.compose3))).arr
    val weft = json.find(_("contender").str == "weft").get.obj
    // rawData 249000, 250000, 251000: 250000 ± 4.303 * 1000 / sqrt(3)
    assertEqualsDouble(weft("interval")("low").num, 250000 - 4303 / math.sqrt(3), 1e-6)
    assertEquals(weft("interval")("level").num, 0.95)
    val verdicts = weft("verdicts").arr
    assertEquals(verdicts.size, 1)
    // the fixture has no asyncAwait row
    assertEquals(verdicts.head("verdict").str, "NOT CHECKED")
    val ce = json.find(_("contender").str == "catsEffect").get.obj
    assert(!ce.contains("verdicts"))
    assertEquals(ce("interval")("pointOnly").bool, true)

  test("the overview lists every target's verdict with its interval"):
    val w = Workloads.compose3
    def row(c: String, low: Double, high: Double) = Fixtures.intervalRow(w, c, low, high, 3)
    val md = Overview.render(
      RunMode.Quick,
      Seq(w),
      Seq(row("weft", 90, 110), row("asyncAwait", 95, 105)),
      Nil
    ).mkString("\n")
    assert(
      md.contains(
        "| compose-3 | 3 | weft costs at most 1.00x what `asyncAwait` costs per op | **INCONCLUSIVE** | `asyncAwait` | 1.00x (95%: 0.86x to 1.17x) | 1.00x |"
      ),
      md
    )
    assert(md.contains("1 INCONCLUSIVE"), md)

  test("the overview states how wide the intervals came out"):
    def row(score: Double, low: Double, high: Double) =
      Fixtures.compose3Rows.head.copy(
        score = Some(score),
        interval = Some(Interval(low, high, 0.95))
      )
    val text = Overview.precision(Seq(row(100, 95, 105), row(100, 80, 120), row(10, 9, 11)))
    assertEquals(
      text,
      Some(
        "- 95% intervals: median half-width ±10.0% of the score, 90th percentile ±20.0% (3 intervals)."
      )
    )
