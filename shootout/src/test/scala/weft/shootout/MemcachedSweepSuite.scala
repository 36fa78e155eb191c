package weft.shootout

/**
 * The memcached thread-count sweep: the counts each mode measures, and the 1.2x target judged at
 * every count on the judged `weft` row, never on `weftDirect` or another weft variant.
 */
class MemcachedSweepSuite extends munit.FunSuite:

  private val setGet = MemcachedWorkloads.setGet
  private val multiGet = MemcachedWorkloads.multiGet50

  private def row(w: Workload, c: Contender, low: Double, high: Double, threads: Int) =
    Fixtures.intervalRow(w, c.id, low, high, threads)

  test("setget: 4 and 32 callers in quick mode, 1 and 128 more in --full"):
    assertEquals(setGet.threadsIn(RunMode.Quick), Seq(4, 32))
    assertEquals(setGet.threadsIn(RunMode.Smoke), Seq(4, 32))
    assertEquals(setGet.threadsIn(RunMode.Full).sorted, Seq(1, 4, 32, 128))

  test("multiget-50: 32 callers in quick mode, 1, 4 and 128 more in --full"):
    assertEquals(multiGet.threadsIn(RunMode.Quick), Seq(32))
    assertEquals(multiGet.threadsIn(RunMode.Full).sorted, Seq(1, 4, 32, 128))

  test("the seed's published figures stay at the 32 callers they were measured at"):
    for w <- Seq(setGet, multiGet) do assertEquals(w.published.map(_.threads).distinct, Seq(32))

  test("setget's judged row is weft, and weftDirect is measured in quick mode but no peer"):
    assertEquals(setGet.judgedAs, Contender.weft)
    assert(setGet.contenders.contains(Contender.weftDirect))
    assert(!setGet.notInQuickContenders.contains(Contender.weftDirect))
    assert(!Targets.isPeer(setGet, Contender.weftDirect.id))
    assert(!multiGet.contenders.contains(Contender.weftDirect))

  test("every count of callers gets its own verdict, from the rows at that count only"):
    val rows = Seq(
      // 4 callers: weft 1.5x the best peer's whole interval: MET
      row(setGet, Contender.weft, 30_000, 31_000, 4),
      row(setGet, Contender.folsomBinary, 19_000, 20_000, 4),
      row(setGet, Contender.spyBinary, 10_000, 11_000, 4),
      // 32 callers: weft behind folsom: MISSED
      row(setGet, Contender.weft, 40_000, 41_000, 32),
      row(setGet, Contender.folsomBinary, 45_000, 46_000, 32),
      row(setGet, Contender.spyBinary, 20_000, 21_000, 32),
      // 128 callers (--full): the intervals straddle the goal: INCONCLUSIVE
      row(setGet, Contender.weft, 30_000, 50_000, 128),
      row(setGet, Contender.folsomBinary, 30_000, 36_000, 128)
    )
    val checked = Targets.check(setGet, rows)
    assertEquals(
      checked.map((t, threads, v) => (t, threads, v.outcome)),
      Seq(
        (Target.AheadOfPeers(1.2), 4, Outcome.Met),
        (Target.AheadOfPeers(1.2), 32, Outcome.Missed),
        (Target.AheadOfPeers(1.2), 128, Outcome.Inconclusive)
      )
    )
    assert(checked.forall(_._3.comparison.exists(_.reference == "folsomBinary")), checked)
    // each verdict lands on weft's row of its own count in summary.json
    val json = ujson.read(SummaryJson.render(rows, Seq(setGet))).arr
    val verdicts = json.filter(_("contender").str == "weft").map(o =>
      o("params")("threads").num.toInt -> o("verdicts").arr.map(_("verdict").str).toSeq
    ).toMap
    assertEquals(
      verdicts,
      Map(4 -> Seq("MET"), 32 -> Seq("MISSED"), 128 -> Seq("INCONCLUSIVE"))
    )
    // and the report lists one target line per count
    val md = Report.render(Fixtures.quickRunInfo, Seq(setGet), rows, Nil)
    for (n, label) <- Seq(4 -> "MET", 32 -> "MISSED", 128 -> "INCONCLUSIVE") do
      assert(
        md.linesIterator.exists(l => l.contains(s"$label") && l.contains(s"at $n threads")),
        md
      )

  test("a count without weft's row is NOT CHECKED there, whatever the other counts say"):
    val rows = Seq(
      row(setGet, Contender.weft, 30_000, 31_000, 4),
      row(setGet, Contender.folsomBinary, 19_000, 20_000, 4),
      row(setGet, Contender.folsomBinary, 45_000, 46_000, 32),
      row(setGet, Contender.weftDirect, 90_000, 91_000, 32)
    )
    assertEquals(
      Targets.check(setGet, rows).map((_, n, v) => n -> v.outcome),
      Seq(4 -> Outcome.Met, 32 -> Outcome.NotChecked)
    )

  test("weftDirect, however fast or slow, is neither judged nor the best peer"):
    for direct <- Seq(1_000.0, 900_000.0) do
      val rows = Seq(
        row(setGet, Contender.weft, 30_000, 31_000, 32),
        row(setGet, Contender.weftDirect, direct, direct + 1000, 32),
        row(setGet, Contender.folsomBinary, 19_000, 20_000, 32)
      )
      val v = Targets.check(setGet, rows).map(_._3)
      assertEquals(v.map(_.outcome), Seq(Outcome.Met), direct)
      assertEquals(v.flatMap(_.comparison).map(_.reference), Seq("folsomBinary"), direct)
