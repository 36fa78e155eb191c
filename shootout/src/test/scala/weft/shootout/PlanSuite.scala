package weft.shootout

class PlanSuite extends munit.FunSuite:

  private val listing = Seq(
    "weft.bench.Compose3.weft",
    "weft.bench.Compose3.ox",
    "weft.bench.FutureSpawnAwait.weft",
    "weft.bench.scala2.Compose3.asyncAwait"
  )

  test(
    "a workload without benchmarks is skipped with a note; others become one job per thread count and module"
  ):
    val plan = Plan.make(
      Seq(Workloads.compose3, Workloads.channels.head),
      RunMode.Quick,
      {
        case Module.Bench       => listing.filterNot(_.contains("scala2"))
        case Module.BenchScala2 => listing.filter(_.contains("scala2"))
      },
      _ => ""
    )
    assertEquals(plan.skipped.map(_._1.id), Seq("channel-sync"))
    val jobs = plan.jobs.collect { case j: Job.JmhRun => (j.threads, j.part.module, j.benchmarks) }
    assertEquals(jobs.size, 8)
    assertEquals(
      jobs.head,
      (1, Module.Bench, Seq("weft.bench.Compose3.weft", "weft.bench.Compose3.ox"))
    )
    assertEquals(jobs(1), (1, Module.BenchScala2, Seq("weft.bench.scala2.Compose3.asyncAwait")))

  test(
    "modes choose the iteration counts; full mode uses the seed's per-thread counts; forks >= 1"
  ):
    val w = Workloads.compose3
    assertEquals(w.params(RunMode.Smoke, 1), Some(Params.smoke))
    assertEquals(
      w.params(RunMode.Full, 1).map(p => (p.warmupIterations, p.iterations, p.forks)),
      Some((20, 20, 10))
    )
    assertEquals(
      w.params(RunMode.Full, 3).map(p => (p.warmupIterations, p.iterations, p.forks)),
      Some((20, 10, 3))
    )
    intercept[IllegalArgumentException](Params(0, "1s", 1, "1s", 0))

  test("an external runner whose harness is absent is skipped"):
    val w = Workload(
      "memory-x",
      "t",
      "s",
      Runner.External(Module.Bench, "no.such.Harness"),
      "bytes/op",
      false,
      Seq(1),
      ""
    )
    val plan =
      Plan.make(Seq(w), RunMode.Quick, _ => Nil, _ => System.getProperty("java.class.path"))
    assertEquals(plan.jobs, Nil)
    assert(plan.skipped.head._2.contains("no.such.Harness"))

  test("an external harness's prediction is its own, once per harness run"):
    def h(seconds: Double): Runner.External =
      new Runner.External(
        Module.Bench,
        "weft.bench.memory.MemoryShootout",
        None,
        seconds
      )
    val w = Workload("m", "t", "s", h(105), "bytes/op", false, Seq(1), "")
    assertEquals(Job.ExternalRun(w, h(105)).predictedSeconds, 105.0)
    assertEquals(Job.ExternalRun(w, h(60), shared = true).predictedSeconds, 0.0)
    // every harness of the registry states how long it takes, none relies on the default
    val default = Runner.External(Module.Bench, "x").seconds
    val harnesses = Workloads.all.map(_.runner).collect { case e: Runner.External => e }
    assert(harnesses.size >= 3 && harnesses.forall(_.seconds != default), harnesses)

  test("JMH time values and options"):
    assertEquals(Params.toSeconds("100ms"), 0.1)
    assertEquals(Params.toSeconds("2s"), 2.0)
    assertEquals(Params.toSeconds("1 s"), 1.0)
    assertEquals(
      Options.parse(Seq("--config", "f", "--smoke", "--only", "race-3")).map(o => (o.mode, o.only)),
      Right((RunMode.Smoke, Seq("race-3")))
    )
    assert(Options.parse(Seq("--config", "f", "--only", "nope")).isLeft)

  test("progress estimates the time left from the prediction, scaled by the pace so far"):
    var now = 0L
    val p = Progress(100, () => now)
    assertEquals(p.left, 100.0)
    now = 20_000_000_000L
    p.advance(10)
    assertEqualsDouble(p.left, 180.0, 1e-9)

  test("the workloads whose verdicts flipped between quick runs measure four JVMs each"):
    val byId = Workloads.all.map(w => w.id -> w).toMap
    for id <- Seq("channel-buffered-16", "tcp-echo-concurrent") do
      byId(id).runner match
        case j: Runner.Jmh => assertEquals(j.quick.forks, 4, id)
        case other         => fail(s"$id is not a JMH workload: $other")
    assertEquals(Params.quickManyForks.forks, 4)

  test("the prediction: host start, then per benchmark its iterations and per fork the overheads"):
    val quick = Params.quick
    assertEqualsDouble(quick.seconds, 5.0, 1e-9) // 2 forks x (3 x 0.3 s + 4 x 0.4 s)
    def job(w: Workload, n: Int) =
      Job.JmhRun(w, JmhPart(Module.Bench, "x"), Mode.Throughput, quick, 1, Seq.fill(n)("b"))
    val plain = job(Workloads.race3, 5)
    assertEqualsDouble(
      plain.predictedSeconds,
      Plan.HostStartSeconds + 5 * (5.0 + 2 * Plan.ForkOverheadSeconds),
      1e-9
    )
    // a memcached fork starts and loads its server: the workload's extra seconds per fork
    val multiGet = Workloads.memcached.find(_.id == "memcached-multiget-50").get
    val extra = multiGet.runner match
      case r: Runner.Jmh => r.forkExtraSeconds
      case _             => fail("multiget is JMH")
    assert(extra > 0)
    assertEqualsDouble(
      job(multiGet, 10).predictedSeconds,
      Plan.HostStartSeconds + 10 * (5.0 + 2 * (Plan.ForkOverheadSeconds + extra)),
      1e-9
    )
    assertEqualsDouble(
      Plan(Seq(plain, job(multiGet, 10)), Nil).predictedSeconds,
      plain.predictedSeconds + job(multiGet, 10).predictedSeconds,
      1e-9
    )
