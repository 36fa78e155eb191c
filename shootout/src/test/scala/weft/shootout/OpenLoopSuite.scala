package weft.shootout

import java.nio.charset.StandardCharsets
import java.nio.file.Files

class OpenLoopSuite extends munit.FunSuite:

  private val w = MemcachedOpenLoopWorkloads.openLoops.find(_.id == "memcached-openloop-p99").get

  /** A row as the harness gives it: a score without an interval (one run). */
  private def point(c: String, us: Double) =
    Row(w.id, c, 1, Some(us), None, w.unit, false, scala.collection.immutable.ListMap.empty)

  /** A row with an interval of zero width at its score: the target's rule on the points. */
  private def row(c: String, us: Double) = Fixtures.intervalRow(w, c, us, us)

  /** The judged weft row. */
  private val judged = MemcachedOpenLoopWorkloads.judged.id

  /** A row as the harness gives it now: the geometric mean of its blocks and their interval. */
  private def blocks(c: String, us: Double*) =
    val geo = math.exp(us.map(math.log).sum / us.size)
    point(c, geo).copy(interval = Some(ExternalRunner.interval(geo, None, us)))

  test("the p99 target is met when weft's latency is at most 0.8x every peer's"):
    val v = Targets.verdict(
      w.targets.head,
      w,
      Seq(row(judged, 70), row("spyAscii", 100), row("folsomAscii", 200))
    )
    assertEquals(v.outcome, Outcome.Met)
    assert(v.detail.contains("weft's latency is 0.70x"), v.detail)
    assert(v.detail.contains("`spyAscii`"), v.detail)
    assertEquals(
      Targets.describe(w.targets.head, w.unit),
      "weft's latency is at most 0.80x the best peer's (µs)"
    )

  test("the p99 target is missed when a peer's latency is below weft's / 0.8"):
    val v = Targets.verdict(w.targets.head, w, Seq(row(judged, 90), row("spyAscii", 100)))
    assertEquals(v.outcome, Outcome.Missed)

  test("one sample per contender decides nothing: INCONCLUSIVE however far apart"):
    for (weft, peer) <- Seq((70.0, 100.0), (300.0, 100.0)) do
      val v = Targets.verdict(w.targets.head, w, Seq(point(judged, weft), point("spyAscii", peer)))
      assertEquals(v.outcome, Outcome.Inconclusive, (weft, peer))
      assert(v.detail.contains("no interval"), v.detail)

  test("blocks give the p99 a Student-t interval on their logarithms, always positive"):
    val i = ExternalRunner.interval(228.9, None, Seq(100, 200, 600))
    val logs = Interval.ofSamples(Seq(100.0, 200, 600).map(math.log)).get
    assertEqualsDouble(i.low, math.exp(logs.low), 1e-9)
    assertEqualsDouble(i.high, math.exp(logs.high), 1e-9)
    assert(!i.pointOnly)
    assert(i.low > 0, s"a latency's interval stays above zero: $i")
    // the geometric mean is the middle of the interval in ratio
    val geo = math.cbrt(100.0 * 200 * 600)
    assertEqualsDouble(geo / i.low, i.high / geo, 1e-9)
    // where the plain mean's interval went below zero
    assert(Interval.ofSamples(Seq(100, 200, 600)).get.low < 0)
    assert(ExternalRunner.interval(300, None, Seq(300)).pointOnly, "one block: a point")
    assertEquals(ExternalRunner.interval(300, Some(10), Nil), Interval(290, 310, Interval.Level))
    assertEquals(
      ExternalRunner.interval(0, None, Seq(-1, 1)),
      Interval.ofSamples(Seq(-1, 1)).get,
      "a sample at or below zero: the plain mean"
    )

  test("with block intervals the p99 target is MET, MISSED or INCONCLUSIVE"):
    def outcome(weft: Seq[Double], peer: Seq[Double]) =
      Targets.verdict(w.targets.head, w, Seq(blocks(judged, weft*), blocks("spyAscii", peer*)))
        .outcome
    // weft 500 ± 14, peer 1000 ± 14: 0.52x at worst, under 0.8x
    assertEquals(
      outcome(Seq(490, 500, 510, 495, 505), Seq(990, 1000, 1010, 995, 1005)),
      Outcome.Met
    )
    // weft 1000, peer 1000 tight: 1.0x at best, above 0.8x
    assertEquals(
      outcome(Seq(990, 1000, 1010, 995, 1005), Seq(990, 1000, 1010, 995, 1005)),
      Outcome.Missed
    )
    // weft's blocks spread from 300 to 1500: its interval straddles 0.8x the peer's
    assertEquals(
      outcome(Seq(300, 1500, 400, 1200, 600), Seq(990, 1000, 1010, 995, 1005)),
      Outcome.Inconclusive
    )

  test("the judged row is weft's pipelined spelling, against every peer row of both spellings"):
    assertEquals(w.judgedAs, Contender.weftPipelined)
    val v = Targets.verdict(
      w.targets.head,
      w,
      Seq(
        row("weft", 10), // weft's blocking row: shown, not judged
        row(judged, 70),
        row("spyAscii", 100),
        row("spyAsciiAsync", 80) // the peer's best spelling decides
      )
    )
    assertEquals(v.outcome, Outcome.Missed, v.detail)
    assert(v.detail.contains("`spyAsciiAsync`"), v.detail)
    for c <- Seq("weft", "spyAsciiAsync", "spyBinaryAsync", "folsomAsciiAsync", "folsomBinaryAsync")
    do assert(w.contenders.map(_.id).contains(c), c)

  test("the harness's block samples parse per contender and metric"):
    val text =
      """[{"contender": "weft", "metric": "p99", "score": 2.0, "error": null, "samples": [1, 3]},
        | {"contender": "weft", "metric": "p50", "score": 1.0, "error": null, "samples": [1, 1]},
        | {"contender": "spyAscii", "metric": "p99", "score": null, "error": null, "samples": []}]""".stripMargin
    assertEquals(
      ExternalRunner.samples(text, Some("p99")),
      Map("weft" -> Seq(1.0, 3.0), "spyAscii" -> Nil)
    )

  test("the harness's open-loop parses into one row per contender and metric"):
    val text =
      """[{"contender": "weft", "metric": "p99", "score": 120.5, "error": null},
        | {"contender": "weft", "metric": "p50", "score": 50.0, "error": null},
        | {"contender": "spyAscii", "metric": "p99", "score": null, "error": null}]""".stripMargin
    assertEquals(ExternalRunner.parse(text, Some("p99")), Map("weft" -> (120.5, None)))

  test("both charts are drawn from the harness's data"):
    val logs = Files.createTempDirectory("ol-logs")
    val out = Files.createTempDirectory("ol-out")
    Files.writeString(
      logs.resolve(OpenLoopCharts.DataFile),
      """{"rate": 20000, "curves": {"weft": [[50.0, 150.0], [99.0, 4000.0], [100.0, 9000.0]],
        | "spyAscii": [[50.0, 290.0], [99.0, 2000.0], [100.0, 6000.0]]},
        | "p99ByRate": {"weft": [[500, 50000.0, true], [20000, 4000.0, true]]}}""".stripMargin,
      StandardCharsets.UTF_8
    )
    val files = OpenLoopCharts.write(logs.toFile, out.toFile)
    assertEquals(
      files.map(_.getName),
      Seq("memcached-openloop-latency.png", "memcached-openloop-p99-by-load.png")
    )
    files.foreach(f => assert(f.length > 1000, s"$f is ${f.length} bytes"))

  test("a chart without data is left out instead of failing the report"):
    val logs = Files.createTempDirectory("ol-empty")
    Files.writeString(
      logs.resolve(OpenLoopCharts.DataFile),
      """{"rate": null, "curvesRate": null, "curves": {},
        | "p99ByRate": {"weft": [[10000, 20000.0, false]]}}""".stripMargin,
      StandardCharsets.UTF_8
    )
    assertEquals(
      OpenLoopCharts.write(logs.toFile, logs.toFile).map(_.getName),
      Seq("memcached-openloop-p99-by-load.png")
    )

  test("a run whose every row FAILED (no load every client sustained) still gets its report"):
    val failed = w.contenders.map(c =>
      point(c.id, 1).copy(score = None, failure = Some("no score from the harness"))
    )
    val dir = Files.createTempDirectory("ol-failed")
    val overview = dir.resolve("overview.png").toFile
    // the overview has no line to draw: xchart threw on it, ending the report unwritten
    Charts.writePng(Charts.overview(Overview.lines(Seq(w), failed, true)), overview)
    assert(!overview.exists, "nothing to draw, and nothing thrown")
    val chart = dir.resolve(s"${w.id}.png").toFile
    Charts.writePng(w, failed, chart)
    assert(chart.length > 1000, "the workload's chart names its FAILED rows")

  test("percentile labels keep their digits; 100 is the maximum"):
    assertEquals(
      Seq(50.0, 99.95, 99.99, 100.0).map(OpenLoopCharts.percentileLabel),
      Seq("50", "99.95", "99.99", "max")
    )

  test("without the harness's data no chart is written"):
    val logs = Files.createTempDirectory("ol-none")
    assertEquals(OpenLoopCharts.write(logs.toFile, logs.toFile), Nil)
