package weft.shootout

/** The statistical verdicts, on hand-made intervals. */
class VerdictSuite extends munit.FunSuite:

  private def row(w: Workload, contender: String, low: Double, high: Double): Row =
    Fixtures.intervalRow(w, contender, low, high)

  private def only(w: Workload, rows: Row*): Verdict =
    val checks = Targets.check(w, rows)
    assertEquals(checks.size, 1, checks)
    checks.head._3

  // compose-3: ns/op, weft costs at most 1.0x asyncAwait.
  private val cost = Workloads.compose3.copy(threads = Seq(1))

  test("cost target: MET when weft's worst cost is within the limit"):
    val v = only(cost, row(cost, "weft", 90, 100), row(cost, "asyncAwait", 110, 130))
    assertEquals(v.outcome, Outcome.Met)
    assert(v.detail.contains("95%: 0.69x to 0.91x"), v.detail)

  test("cost target: MISSED when even weft's best cost is over the limit"):
    val v = only(cost, row(cost, "weft", 150, 170), row(cost, "asyncAwait", 100, 120))
    assertEquals(v.outcome, Outcome.Missed)

  test("cost target: INCONCLUSIVE when the ratio interval straddles the limit"):
    // Points 100 vs 105 look like MET, but the intervals overlap across 1.0x.
    val v = only(cost, row(cost, "weft", 80, 120), row(cost, "asyncAwait", 95, 115))
    assertEquals(v.outcome, Outcome.Inconclusive)
    val c = v.comparison.get
    assert(c.speedup.low < 1.0 && c.speedup.high > 1.0, c)

  test("an interval reaching zero makes the ratio unbounded, so the verdict INCONCLUSIVE"):
    val v = only(cost, row(cost, "weft", -50, 250), row(cost, "asyncAwait", 200, 220))
    assertEquals(v.outcome, Outcome.Inconclusive)
    assert(v.comparison.get.speedup.high.isInfinite)

  // channel-sync: ops/s, weft within 1.0x of jox, and at least 10x the seed's figure.
  private val thrpt = Workloads.channels.head

  test("throughput targets: ratio and absolute goal judged on intervals"):
    val rows = Seq(row(thrpt, "weft", 4.0e6, 5.0e6), row(thrpt, "jox", 3.0e6, 3.5e6))
    val checks = Targets.check(thrpt, rows).map((t, _, v) => t -> v.outcome)
    assertEquals(
      checks,
      Seq(
        Target.WithinFactorOf(Contender.jox, 1.0) -> Outcome.Met,
        Target.AtLeast(ChannelWorkloads.TenTimesSeed) -> Outcome.Met
      )
    )
    val straddling = Seq(row(thrpt, "weft", 3.0e6, 3.4e6), row(thrpt, "jox", 3.0e6, 3.5e6))
    assertEquals(
      Targets.check(thrpt, straddling).map(_._3.outcome),
      Seq(Outcome.Inconclusive, Outcome.Inconclusive)
    )
    val below = Seq(row(thrpt, "weft", 1.0e6, 2.0e6), row(thrpt, "jox", 3.0e6, 3.5e6))
    assertEquals(Targets.check(thrpt, below).map(_._3.outcome), Seq(Outcome.Missed, Outcome.Missed))

  // sequentially-batch-1000: ops/s, weft ahead of every peer by 1.5x.
  private val ahead = Workloads.keyed.head

  test("ahead of peers: MISSED against any peer misses, INCONCLUSIVE against any leaves it open"):
    val met = Seq(
      row(ahead, "weft", 3000, 3200),
      row(ahead, "weftRun", 1, 2), // weft's own shape, not a peer
      row(ahead, "pekkoActors", 1000, 1100),
      row(ahead, "futureChain", 1500, 1900)
    )
    assertEquals(only(ahead, met*).outcome, Outcome.Met)
    val open = met.updated(3, row(ahead, "futureChain", 1800, 2200))
    val v = only(ahead, open*)
    assertEquals(v.outcome, Outcome.Inconclusive)
    assertEquals(v.comparison.get.reference, "futureChain")
    val missed = met.updated(2, row(ahead, "pekkoActors", 2500, 2600))
    assertEquals(only(ahead, missed*).outcome, Outcome.Missed)

  test("a contender shown only is never weft's reference or best peer"):
    val w = ahead.copy(shownOnly = Set(Contender.pekkoActors))
    val rows = Seq(
      row(w, "weft", 3000, 3200),
      row(w, "pekkoActors", 2900, 3100), // would miss the 1.5x goal if it were compared
      row(w, "futureChain", 1500, 1900)
    )
    assertEquals(only(w, rows*).outcome, Outcome.Met)
    assertEquals(Targets.bestPeer(w, rows).map(_._2.reference), Seq("futureChain"))

  test("a score without an interval decides nothing: INCONCLUSIVE, and it says so"):
    // The seed's target only (at most 1.2x): 100 vs 90 is within it on the points, far out of
    // it too (200 vs 90), but one sample cannot tell; the open loop's p99, one sample per run,
    // was MET in one run of three and MISSED in the others.
    val w0 = Workloads.memoryWorkloads.head
    val w = w0.copy(targets = w0.targets.take(1))
    for weftBytes <- Seq(100.0, 200.0) do
      val rows = Seq(
        row(w, "weft", weftBytes, weftBytes).copy(interval = None),
        row(w, "virtual-thread", 90, 90).copy(interval = None)
      )
      val v = only(w, rows*)
      assertEquals(v.outcome, Outcome.Inconclusive, weftBytes)
      assert(v.detail.contains("no interval"), v.detail)
    // the same with only weft's score a point
    val mixed = Seq(
      row(w, "weft", 100, 100).copy(interval = None),
      row(w, "virtual-thread", 90, 90)
    )
    assertEquals(only(w, mixed*).outcome, Outcome.Inconclusive)

  test("no weft or no reference: NOT CHECKED"):
    assertEquals(only(cost, row(cost, "asyncAwait", 1, 2)).outcome, Outcome.NotChecked)
    assertEquals(only(cost, row(cost, "weft", 1, 2)).outcome, Outcome.NotChecked)

  test("Student's t: table, expansion, and the interval of samples"):
    assertEqualsDouble(Interval.t95(1), 12.706, 1e-9)
    assertEqualsDouble(Interval.t95(30), 2.042, 1e-9)
    assertEqualsDouble(Interval.t95(60), 2.000, 0.002)
    assertEqualsDouble(Interval.t95(1000), 1.962, 0.001)
    val i = Interval.ofSamples(Seq(9.0, 10.0, 11.0)).get
    // mean 10, sd 1, t(2) = 4.303: 10 ± 4.303 / sqrt(3)
    assertEqualsDouble(i.low, 10 - 4.303 / math.sqrt(3), 1e-9)
    assertEqualsDouble(i.high, 10 + 4.303 / math.sqrt(3), 1e-9)
    assert(Interval.ofSamples(Seq(5.0)).get.pointOnly)
    assertEquals(Interval.ofSamples(Nil), None)

  test("a workload's notes name the limits its targets check, not others"):
    // The semaphore notes said "at most 2x" after the target became 1.25x.
    val said = """at most ([0-9.]+)x""".r
    for w <- Workloads.all do
      val factors = w.targets.collect { case Target.WithinFactorOf(_, f) => f }
      for m <- said.findAllMatchIn(w.notes) do
        assert(
          factors.exists(f => math.abs(f - m.group(1).toDouble) < 1e-9),
          s"${w.id}: notes say 'at most ${m.group(1)}x', targets check $factors"
        )
    val semaphore = Workloads.byId("semaphore-contended").get
    assert(semaphore.notes.contains("at most 1.25x"), semaphore.notes)

  test("sequentially-io's target is judged on weft without its timer slack, the like for like"):
    // weft's own row leads the peers by its 1 µs timer slack, which no peer gets; without it
    // weft sits at the peers' floor: the target must not be MET on the slack alone.
    val w = Workloads.byId("sequentially-io").get
    val rows = Seq(
      row(w, "weft", 48, 49),
      row(w, "weftDefaultSlack", 46.5, 47.5),
      row(w, "futureChain", 46.5, 47.5),
      row(w, "pekkoActorsPerKey", 7, 7.2)
    )
    val v = only(w, rows*)
    assertEquals(v.outcome, Outcome.Inconclusive)
    assert(v.detail.startsWith("judged on `weftDefaultSlack`"), v.detail)
    assertEquals(v.comparison.map(_.reference), Some("futureChain"))
    val noLikeForLike = only(w, rows.filterNot(_.contender == "weftDefaultSlack")*)
    assertEquals(noLikeForLike.outcome, Outcome.NotChecked)

  test("the overview names the weft row a target is judged on"):
    val w = Workloads.byId("sequentially-io").get
    val rows =
      Seq(row(w, "weft", 48, 49), row(w, "weftDefaultSlack", 46, 48), row(w, "futureChain", 46, 48))
    val lines = Overview.lines(Seq(w), rows, checkTargets = true)
    assertEquals(lines.map(_.label), Seq("sequentially-io (weftDefaultSlack) vs futureChain"))
    val noTarget = Overview.lines(Seq(w), rows, checkTargets = false)
    assertEquals(noTarget.map(_.label), Seq("sequentially-io vs futureChain"))
