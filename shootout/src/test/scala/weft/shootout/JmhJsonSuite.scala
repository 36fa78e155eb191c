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
