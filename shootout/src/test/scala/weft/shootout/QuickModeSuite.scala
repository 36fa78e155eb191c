package weft.shootout

/** What quick mode leaves out, what `--full`, `--smoke` and `--only` keep, and the report's lines. */
class QuickModeSuite extends munit.FunSuite:

  /** The workloads the registry leaves out of quick mode as a whole. */
  private val leftWhole = Seq(
    "memcached-value-10b",
    "memcached-value-1kib",
    "memcached-value-100kib",
    "memcached-value-1000kib",
    "memcached-cluster-3"
  )

  /** A workload of benchmarks `weft.bench.X.*` that quick mode leaves out entirely. */
  private val fullOnly = Workload(
    "x-full-only",
    "t",
    "s",
    Runner.Jmh(
      Seq(JmhPart(Module.Bench, "^weft\\.bench\\.X\\.")),
      Mode.Throughput,
      full = Params.quick
    ),
    "ops/s",
    true,
    Seq(1),
    "",
    notInQuick = true
  )

  private val listing = Seq(
    "weft.bench.X.weft",
    "weft.bench.X.ox",
    "weft.bench.Compose3.weft",
    "weft.bench.Compose3.ox",
    "weft.bench.Compose3.oxNoScope",
    "weft.bench.Compose3.weftInScope",
    "weft.bench.scala2.Compose3.asyncAwait"
  )

  private def plan(mode: RunMode, named: Set[String] = Set.empty): Plan =
    Plan.make(
      Seq(Workloads.compose3, fullOnly),
      mode,
      {
        case Module.Bench       => listing.filterNot(_.contains("scala2"))
        case Module.BenchScala2 => listing.filter(_.contains("scala2"))
      },
      _ => "",
      named
    )

  /** Contenders measured per workload id, over every job. */
  private def measured(p: Plan): Map[String, Set[String]] =
    p.jobs.collect { case j: Job.JmhRun => j }.groupMapReduce(_.workload.id)(j =>
      j.benchmarks.map(JmhJson.contenderOf).toSet
    )(_ ++ _)

  test("quick mode leaves out the marked workload and contenders, and lists them"):
    val p = plan(RunMode.Quick)
    assertEquals(measured(p), Map("compose-3" -> Set("weft", "ox", "asyncAwait")))
    assertEquals(
      p.leftOut,
      Seq(LeftOut(Workloads.compose3, Seq("oxNoScope", "weftInScope")), LeftOut(fullOnly, Nil))
    )
    assertEquals(p.skipped, Nil)
    // compose-3 still runs both modules at each of its four thread counts
    assertEquals(p.jobs.size, 8)

  test("--full and --smoke measure every workload and contender, leaving nothing out"):
    for mode <- Seq(RunMode.Full, RunMode.Smoke) do
      val p = plan(mode)
      assertEquals(
        measured(p),
        Map(
          "compose-3" -> Set("weft", "ox", "oxNoScope", "weftInScope", "asyncAwait"),
          "x-full-only" -> Set("weft", "ox")
        ),
        mode
      )
      assertEquals(p.leftOut, Nil, mode)

  test("--only naming a workload quick mode leaves out runs it; its left-out contenders stay out"):
    val p = plan(RunMode.Quick, named = Set("x-full-only", "compose-3"))
    assertEquals(measured(p)("x-full-only"), Set("weft", "ox"))
    assertEquals(measured(p)("compose-3"), Set("weft", "ox", "asyncAwait"))
    assertEquals(p.leftOut, Seq(LeftOut(Workloads.compose3, Seq("oxNoScope", "weftInScope"))))

  test("--only reaches the plan: a named workload quick mode leaves out is run, not left out"):
    val all = Options.parse(Seq("--config", "f")).toOption.get
    assertEquals(
      all.plan(_ => Nil, _ => "").leftOut.filter(_.whole).map(_.workload.id),
      leftWhole
    )
    val o = Options.parse(Seq("--config", "f", "--only", "memcached-value-1000kib")).toOption.get
    assertEquals(o.mode, RunMode.Quick)
    val p = o.plan(_ => Nil, _ => "")
    assertEquals(p.leftOut, Nil)
    // considered for jobs: skipped here only because nothing is listed (or no memcached)
    assertEquals(p.skipped.map(_._1.id), Seq("memcached-value-1000kib"))
    assert(Options.usage.contains("--only runs the workloads it names"), Options.usage)

  test("a module whose every benchmark quick mode leaves out gets no JVM"):
    val w = fullOnly.copy(
      id = "x-rows",
      notInQuick = false,
      notInQuickContenders = Set(Contender.ox, Contender.weft),
      runner = Runner.Jmh(
        Seq(JmhPart(Module.Bench, "^weft\\.bench\\.X\\."), JmhPart(Module.BenchScala2, "^y\\.")),
        Mode.Throughput,
        full = Params.quick
      )
    )
    val p = Plan.make(
      Seq(w),
      RunMode.Quick,
      { case Module.Bench => listing; case Module.BenchScala2 => Seq("y.Y.futureSequence") },
      _ => ""
    )
    assertEquals(
      p.jobs.collect { case j: Job.JmhRun => (j.part.module, j.benchmarks) },
      Seq(Module.BenchScala2 -> Seq("y.Y.futureSequence"))
    )
    assertEquals(p.leftOut, Seq(LeftOut(w, Seq("weft", "ox"))))

  test("the report says what quick mode left out, in the overview and in the workload's section"):
    val left = plan(RunMode.Quick).leftOut
    val md = Report.render(
      Fixtures.quickRunInfo,
      Seq(Workloads.compose3, fullOnly),
      Fixtures.compose3Rows,
      Nil,
      left
    )
    assert(
      md.contains(
        "- left out of this quick run, measured by `--full` (and `--smoke`): `compose-3` rows " +
          "`oxNoScope`, `weftInScope`; `x-full-only`."
      ),
      md
    )
    val section = md.substring(md.indexOf("## compose-3"))
    assert(
      section.contains(
        "- left out of this quick run (`--full` measures them): `oxNoScope`, `weftInScope`."
      ),
      section
    )
    assert(!md.contains("FAILED**: `x-full-only`"), md)
    assert(!md.contains("skipped `x-full-only`"), md)
    val none = Report.render(Fixtures.quickRunInfo, Seq(Workloads.compose3), Nil, Nil, Nil)
    assert(!none.contains("left out"), none)

  test("the registry's quick-mode choices"):
    val byId = Workloads.all.map(w => w.id -> w).toMap
    assertEquals(
      Workloads.all.filter(_.notInQuick).map(_.id),
      leftWhole
    )
    assertEquals(
      byId("compose-3").notInQuickContenders,
      Set(Contender.weftInScope, Contender.oxNoScope)
    )
    assertEquals(
      byId("memcached-setget").notInQuickContenders,
      Set(Contender.weftInScope, Contender.weftClassic)
    )
    assertEquals(
      byId("memcached-multiget-50").notInQuickContenders,
      Set(
        Contender.weftInScope,
        Contender.weftClassic,
        Contender.xmemAsciiUnmerged,
        Contender.xmemBinaryUnmerged
      )
    )
    for id <- Seq("sequentially-batch-1000", "sequentially-hot-keys") do
      assertEquals(byId(id).notInQuickContenders, Set(Contender.weftRun), id)
    for id <- Seq("file-read-4b", "file-write-4b", "file-read-40mb", "file-write-40mb") do
      assertEquals(byId(id).notInQuickContenders, Set(Contender.asyncChannel), id)
    assertEquals(
      byId("sequentially-io").notInQuickContenders,
      Set(Contender.weftRun, Contender.weftThreadSleep)
    )
    assertEquals(byId("future-spawn-await").notInQuickContenders, Set(Contender.virtualThreadJoin))

  test("quick mode never leaves out a row a target needs"):
    for w <- Workloads.all; c <- w.notInQuickContenders do
      val references = w.targets.collect { case Target.WithinFactorOf(r, _) => r }
      assert(c != Contender.weft && c != w.judgedAs && !references.contains(c), (w.id, c))
    // a workload quick mode leaves out whole has a target only if it says where it is judged
    for w <- Workloads.all if w.notInQuick && w.targets.nonEmpty do
      assert(w.quickWhy.contains("--full") && w.quickWhy.contains("--only"), w.id)
