package weft.shootout

class JmhJsonSuite extends munit.FunSuite:

  test("parses a real JMH JSON result"):
    val records = JmhJson.parse(Fixtures.compose3Json)
    assertEquals(
      records.map(_.benchmark),
      Seq("weft.bench.Compose3.catsEffect", "weft.bench.Compose3.weft")
    )
    val weft = records(1)
    assertEquals(weft.contender, "weft")
    assertEquals(weft.mode, "avgt")
    assertEquals(weft.threads, 3)
    assertEquals(weft.forks, 1)
    assertEquals(weft.measurementIterations, 3)
    assertEquals(weft.score, 250000.0)
    assertEquals(weft.scoreError, Some(1234.5))
    assertEquals(weft.unit, "ns/op")
    assertEquals(weft.jmhVersion, "1.37")
    assertEquals(weft.jdkVersion, "25.0.3")

  test("a \"NaN\" score error (one iteration) becomes None"):
    val ce = JmhJson.parse(Fixtures.compose3Json).head
    assertEquals(ce.scoreError, None)
    assertEquals(ce.score, 500000.0)

  test("an empty result file means no results"):
    assertEquals(JmhJson.parse(""), Nil)
    assertEquals(JmhJson.parse("[]"), Nil)

  test("keeps the raw JSON object for results.json"):
    val raw = JmhJson.parse(Fixtures.compose3Json).head.raw
    assertEquals(raw("primaryMetric")("scoreUnit").str, "ns/op")

  test("reads the benchmark names of `-l` output"):
    val lines = Seq("# some warning", "Benchmarks: ", "weft.bench.A.x", "weft.bench.B.y", "")
    assertEquals(JmhRunner.parseListing(lines), Seq("weft.bench.A.x", "weft.bench.B.y"))

  test("results of a killed JMH run are recovered from its log"):
    val job = Fixtures.compose3Job
    val log = Seq(
      "# Benchmark: weft.bench.Compose3.catsEffect",
      "Result \"weft.bench.Compose3.catsEffect\":",
      "  190267.794 ±(99.9%) 346953.209 ns/op [Average]",
      "# Benchmark: weft.bench.Compose3.ox",
      "Result \"weft.bench.Compose3.ox\":",
      "  164.228 ns/op",
      "# Benchmark: weft.bench.Compose3.weft",
      "Iteration   2: ",
      "[shootout] killed after 396s (timeout)"
    )
    val records = JmhRunner.resultsFromLog(log, job)
    assertEquals(
      records.map(r => (r.contender, r.score, r.scoreError, r.unit, r.threads)),
      Seq(
        ("catsEffect", 190267.794, Some(346953.209), "ns/op", 20),
        ("ox", 164.228, None, "ns/op", 20)
      )
    )
    val rows = Rows.fromJmh(
      Workloads.compose3,
      Module.Bench,
      Mode.AverageTime,
      Fixtures.params,
      20,
      Fixtures.expected,
      records,
      "killed"
    )
    assertEquals(
      rows.map(r => (r.contender, r.failed)),
      Seq(("catsEffect", false), ("ox", false), ("weft", true))
    )

  test("an external harness's metrics: one workload reads only its own"):
    val text =
      """[{"contender": "weft", "metric": "gap-p99", "score": 12.5, "error": 1.5},
        | {"contender": "weft", "metric": "throughput", "score": 900, "error": null},
        | {"contender": "pekkoActors", "metric": "gap-p99", "score": 30, "error": 2}]""".stripMargin
    assertEquals(
      ExternalRunner.parse(text, Some("gap-p99")),
      Map("weft" -> (12.5, Some(1.5)), "pekkoActors" -> (30.0, Some(2.0)))
    )
    assertEquals(ExternalRunner.parse(text, Some("throughput")), Map("weft" -> (900.0, None)))
