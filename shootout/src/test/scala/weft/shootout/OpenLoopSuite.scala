package weft.shootout

import java.nio.charset.StandardCharsets
import java.nio.file.Files

class OpenLoopSuite extends munit.FunSuite:

  private val w = MemcachedWorkloads.openLoops.find(_.id == "memcached-openloop-p99").get

  /** A row as the harness gives it: a score without an interval (one run). */
  private def point(c: String, us: Double) =
    Row(w.id, c, 1, Some(us), None, w.unit, false, scala.collection.immutable.ListMap.empty)

  /** A row with an interval of zero width at its score: the target's rule on the points. */
  private def row(c: String, us: Double) = Fixtures.intervalRow(w, c, us, us)

  test("the p99 target is met when weft's latency is at most 0.8x every peer's"):
    val v = Targets.verdict(
      w.targets.head,
      w,
      Seq(row("weft", 70), row("spyAscii", 100), row("folsomAscii", 200))
    )
    assertEquals(v.outcome, Outcome.Met)
    assert(v.detail.contains("weft's latency is 0.70x"), v.detail)
    assert(v.detail.contains("`spyAscii`"), v.detail)
    assertEquals(
      Targets.describe(w.targets.head, w.unit),
      "weft's latency is at most 0.80x the best peer's (µs)"
    )

  test("the p99 target is missed when a peer's latency is below weft's / 0.8"):
    val v = Targets.verdict(w.targets.head, w, Seq(row("weft", 90), row("spyAscii", 100)))
    assertEquals(v.outcome, Outcome.Missed)

  test("the harness's one sample per run decides nothing: INCONCLUSIVE however far apart"):
    for (weft, peer) <- Seq((70.0, 100.0), (300.0, 100.0)) do
      val v = Targets.verdict(w.targets.head, w, Seq(point("weft", weft), point("spyAscii", peer)))
      assertEquals(v.outcome, Outcome.Inconclusive, (weft, peer))
      assert(v.detail.contains("no interval"), v.detail)

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

  test("percentile labels keep their digits; 100 is the maximum"):
    assertEquals(
      Seq(50.0, 99.95, 99.99, 100.0).map(OpenLoopCharts.percentileLabel),
      Seq("50", "99.95", "99.99", "max")
    )

  test("without the harness's data no chart is written"):
    val logs = Files.createTempDirectory("ol-none")
    assertEquals(OpenLoopCharts.write(logs.toFile, logs.toFile), Nil)
