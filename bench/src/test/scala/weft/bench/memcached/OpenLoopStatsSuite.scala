package weft.bench.memcached

/** The open-loop harness's pure rules: windows, sustained loads, the judged load, its JSON. */
class OpenLoopStatsSuite extends munit.FunSuite:

  private def block(c: String, rate: Int, p99: Double, completed: Boolean = true, i: Int = 0) =
    OpenLoopBlock(c, rate, i, completed, 20_000, 20_000, p99 / 4, p99, p99 * 2, p99 * 3, 1000)

  private def load(c: String, rate: Int, p99s: Double*) =
    OpenLoopStats.Load(c, rate, p99s.zipWithIndex.map((p, i) => block(c, rate, p, i = i)))

  test("a window completes only unabandoned, drained, without failures, 95% in the window"):
    import OpenLoopStats.windowCompleted
    assert(windowCompleted(false, true, 0, 950, 1000))
    assert(!windowCompleted(false, true, 0, 949, 1000), "below 95% in the window")
    assert(!windowCompleted(true, true, 0, 1000, 1000), "abandoned")
    assert(!windowCompleted(false, false, 0, 1000, 1000), "not drained")
    assert(!windowCompleted(false, true, 1, 1000, 1000), "a failed call")

  test("a load is sustained when most blocks completed and their median p99 is under 10 ms"):
    assert(OpenLoopStats.sustained(load("a", 10, 9000, 10_000, 11_000)), "median at the ceiling")
    assert(!OpenLoopStats.sustained(load("a", 10, 9000, 10_100, 11_000)), "median above it")
    assert(
      OpenLoopStats.sustained(load("a", 10, 100, 200, 600_000)),
      "one stalled block widens the interval, it does not end the ladder"
    )
    assert(!OpenLoopStats.sustained(load("a", 10, 100, 20_000, 30_000)), "most blocks too slow")
    assert(!OpenLoopStats.sustained(load("a", 10)), "no blocks")
    def withIncomplete(n: Int, of: Int) = OpenLoopStats.Load(
      "a",
      10,
      (0 until of).map(i => block("a", 10, 100, completed = i >= n, i = i))
    )
    assert(OpenLoopStats.sustained(withIncomplete(2, 5)), "3 of 5 windows completed")
    assert(!OpenLoopStats.sustained(withIncomplete(3, 5)), "2 of 5 windows completed")
    assert(!OpenLoopStats.sustained(withIncomplete(1, 2)), "half is not most")
    assertEqualsDouble(load("a", 10, 100, 400, 1600).p99, 400.0, 1e-9) // geometric mean
    assertEqualsDouble(load("a", 10, 600, 100, 200).medianP99, 200.0, 1e-9)

  test("the judged load is the highest every live contender sustained"):
    val loads = Seq(
      load("a", 10, 100),
      load("a", 20, 200),
      load("a", 40, 300),
      load("b", 10, 100),
      load("b", 20, 9_000),
      load("b", 40, 20_000), // completed, but over the ceiling
      load("c", 10, 100) // failed: its ladder does not count
    )
    val rates = Seq(10, 20, 40)
    assertEquals(OpenLoopStats.judgedLoad(loads, Seq("a", "b"), rates), Some(20))
    assertEquals(OpenLoopStats.judgedLoad(loads, Seq("a"), rates), Some(40))
    assertEquals(OpenLoopStats.judgedLoad(loads, Seq("a", "b", "d"), rates), None)
    assertEquals(OpenLoopStats.judgedLoad(loads, Nil, rates), None)
    assertEquals(
      OpenLoopStats.judgedLoad(loads, Seq("a", "b"), rates, countAnyway = true),
      Some(40),
      "a smoke run counts its loads sustained or not"
    )

  test("a contender that sustained no load fails alone instead of leaving no judged load"):
    val loads = Seq(
      load("a", 10, 100),
      load("a", 20, 200),
      load("b", 10, 100),
      load("c", 10, 20_000, 30_000, 100) // median 20 ms: over the ceiling at its first load
    )
    val none = OpenLoopStats.sustainedNone(loads, Seq("a", "b", "c", "d"))
    assertEquals(none.keySet, Set("c", "d"))
    assert(none("c").contains("at 10 gets/s 3 of 3 windows completed, median p99 20.0 ms"), none)
    assertEquals(none("d"), "no load measured")
    val alive = Seq("a", "b", "c", "d").filterNot(none.contains)
    assertEquals(OpenLoopStats.judgedLoad(loads, alive, Seq(10, 20)), Some(10))
    assertEquals(OpenLoopStats.sustainedNone(loads, Seq("c"), countAnyway = true), Map.empty)

  test("blocks group into loads in the order they came"):
    val bs = Seq(block("a", 10, 1), block("a", 10, 2, i = 1), block("a", 20, 3), block("b", 10, 4))
    assertEquals(
      OpenLoopStats.loads(bs).map(l => (l.contender, l.rate, l.blocks.size)),
      Seq(("a", 10, 2), ("a", 20, 1), ("b", 10, 1))
    )

  test("the scores are geometric means over the blocks, with every block's value as a sample"):
    val json = ujsonFree(
      OpenLoopTables.scoresJson(Seq("a", "b"), Seq(load("a", 20, 100, 400, 1600)))
    )
    def score(c: String, m: String) =
      s""""contender": "$c", "metric": "$m", "score": ([0-9.E]+)""".r
        .findFirstMatchIn(json).map(_.group(1).toDouble)
    assertEqualsDouble(score("a", "p99").get, 400.0, 1e-6)
    assertEqualsDouble(score("a", "p50").get, 100.0, 1e-6)
    assert(json.contains(""""samples": [100.0, 400.0, 1600.0]"""), json)
    assert(json.contains(""""samples": [25.0, 100.0, 400.0]"""), json)
    assert(
      json.contains(
        """{"contender": "b", "metric": "p99", "score": null, "error": null, "samples": []}"""
      ),
      json
    )

  test("rows name their client and whether they are its asynchronous spelling"):
    assertEquals(OpenLoop.spelling("weftPipelined"), ("weft", true))
    assertEquals(OpenLoop.spelling("spyAsciiAsync"), ("spyAscii", true))
    assertEquals(OpenLoop.spelling("folsomBinary"), ("folsomBinary", false))
    assertEquals(OpenLoop.spelling("weft"), ("weft", false))

  test("quick windows are sized by count: at least 20,000 gets, 5 blocks"):
    val q = OpenLoop.settings("quick")
    assert(q.blocks >= 5, q.toString)
    assert(q.rates.forall(r => q.gets(r) >= 20_000), q.toString)
    val full = OpenLoop.settings("full")
    assertEquals(full.gets(80_000), 160_000L)
    assertEquals(full.gets(5000), 40_000L)

  test("a load's curve pools its blocks' histograms"):
    val a = LatencyHistogram()
    val b = LatencyHistogram()
    (1 to 99).foreach(_ => a.record(10))
    b.record(5000)
    a.addAll(b)
    assertEquals(a.count, 100L)
    assertEquals(a.percentile(99), 10L)
    assertEquals(a.max, LatencyHistogram.upperOf(LatencyHistogram.indexOf(5000)))
    assertEquals(b.count, 1L, "the added histogram is left as it was")

  /** The JSON as one line, so assertions need not follow its line breaks. */
  private def ujsonFree(s: String): String = s.replace("\n", " ")
