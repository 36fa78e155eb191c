package weft.shootout

class RowsSuite extends munit.FunSuite:

  private def row(contender: String, threads: Int, score: Option[Double], workload: String = "w") =
    Row(
      workload,
      contender,
      threads,
      score,
      None,
      "ns/op",
      false,
      Rows.jmhParams(threads, Module.Bench, s"x.$contender", Mode.AverageTime, Params.quick)
    )

  test("ratio of each contender to weft at the same thread count"):
    val rows = Rows.withRatios(Seq(
      row("weft", 1, Some(100)),
      row("ox", 1, Some(50)),
      row("weft", 3, Some(200)),
      row("ox", 3, Some(600))
    ))
    assertEquals(
      rows.map(r => (r.contender, r.threads, r.ratioToWeft)),
      Seq(
        ("weft", 1, Some(1.0)),
        ("ox", 1, Some(0.5)),
        ("weft", 3, Some(1.0)),
        ("ox", 3, Some(3.0))
      )
    )

  test("no ratio without a weft score, or across workloads"):
    val rows = Rows.withRatios(Seq(
      row("weft", 1, None),
      row("ox", 1, Some(50)),
      row("zio", 1, Some(5), "other")
    ))
    assert(rows.forall(_.ratioToWeft.isEmpty), rows)

  test("JMH records become rows with params; a missing benchmark is FAILED, not dropped"):
    val rows = Fixtures.compose3Rows
    assertEquals(rows.map(_.contender), Seq("catsEffect", "ox", "weft"))
    val ox = rows(1)
    assert(ox.failed)
    assertEquals(ox.score, None)
    assertEquals(ox.failure, Some("no result from JMH"))
    val ce = rows(0)
    assertEquals(ce.score, Some(500000.0))
    assertEquals(ce.ratioToWeft, Some(2.0))
    assertEquals(ce.params("threads").num, 3.0)
    assertEquals(ce.params("benchmark").str, "weft.bench.Compose3.catsEffect")
    assertEquals(ce.params("forks").num, 1.0)

  test("a result in another unit than the workload's is FAILED"):
    val json = Fixtures.compose3Json.replace("\"ns/op\"", "\"us/op\"")
    val rows = Rows.fromJmh(
      Workloads.compose3,
      Module.Bench,
      Mode.AverageTime,
      Fixtures.params,
      3,
      Fixtures.expected.take(1),
      JmhJson.parse(json),
      "?"
    )
    assert(rows.head.failed)
    assert(rows.head.failure.exists(_.contains("us/op")))

  test("a workload naming its JMH op (batches/s) gets JMH's ops/s under that name"):
    val w = Workloads.byId("sequentially-io").get
    val json =
      Fixtures.compose3Json.replace("\"avgt\"", "\"thrpt\"").replace("\"ns/op\"", "\"ops/s\"")
    val rows = Rows.fromJmh(
      w,
      Module.Bench,
      Mode.Throughput,
      Fixtures.params,
      3,
      Fixtures.expected.takeRight(1),
      JmhJson.parse(json),
      "?"
    )
    assertEquals(rows.map(r => (r.contender, r.failed, r.unit)), Seq(("weft", false, "batches/s")))
    // ... while a result in another time base is still FAILED.
    val wrong = Rows.fromJmh(
      w,
      Module.Bench,
      Mode.Throughput,
      Fixtures.params,
      3,
      Fixtures.expected.takeRight(1),
      JmhJson.parse(Fixtures.compose3Json),
      "?"
    )
    assert(wrong.head.failure.exists(_.contains("expected ops/s")), wrong)

  test("every JMH workload's unit is its mode's unit or a name for its op in the same time base"):
    for w <- Workloads.all do
      w.runner match
        case j: Runner.Jmh => assert(j.mode.labels(w.unit), s"${w.id}: ${w.unit} for ${j.mode}")
        case _             => ()
    assertEquals(Workloads.byId("sequentially-io").map(_.unit), Some("batches/s"))
    assert(!Mode.Throughput.labels("ns/op") && !Mode.AverageTime.labels("ops/s"))

  /** `r` with an interval of zero width at its score: a verdict on the points alone. */
  private def exact(r: Row): Row =
    r.copy(interval = r.score.map(s => Interval(s, s, Interval.Level)))

  test("targets: weft within a factor of a reference, in cost per op"):
    val w = Workloads.compose3
    val rows = Seq(
      row("weft", 1, Some(100), w.id),
      row("asyncAwait", 1, Some(200), w.id),
      row("weft", 3, Some(300), w.id),
      row("asyncAwait", 3, Some(200), w.id),
      row("weft", 10, Some(300), w.id)
    ).map(exact)
    val verdicts = Targets.check(w, rows).map((_, t, v) => t -> v.label)
    assertEquals(verdicts, Seq(1 -> "MET", 3 -> "MISSED", 10 -> "NOT CHECKED"))

  test("targets: weft ahead of every peer by a factor; weft's other shapes are not peers"):
    val w = Workloads.keyed.head
    val rows = Seq(
      row("weft", 1, Some(300), w.id),
      row("weftRun", 1, Some(9000), w.id),
      row("pekkoActors", 1, Some(180), w.id),
      row("futureChain", 1, Some(190), w.id),
      row("weft", 2, Some(300), w.id),
      row("pekkoActors", 2, Some(250), w.id),
      row("weft", 3, Some(300), w.id),
      row("weftRun", 3, Some(100), w.id)
    ).map(exact)
    val verdicts = Targets.check(w, rows).map((_, t, v) => t -> v)
    assertEquals(
      verdicts.map((t, v) => t -> v.label),
      Seq(1 -> "MET", 2 -> "MISSED", 3 -> "NOT CHECKED")
    )
    assert(verdicts.head._2.detail.contains("`futureChain`"), verdicts.head._2.detail)
