package weft.shootout

/**
 * The registry's contenders against the bench classes: what a workload names is what JMH
 * runs, and every benchmark method of a registered class is a declared [[Contender]].
 */
class ContendersSuite extends munit.FunSuite:

  private val jmhWorkloads: Seq[(Workload, Runner.Jmh)] =
    Workloads.all.flatMap(w =>
      w.runner match
        case r: Runner.Jmh => Some(w -> r)
        case _             => None
    )

  /** The benchmarks (full names) a JMH workload's parts select, as the plan selects them. */
  private def selected(r: Runner.Jmh): Seq[String] =
    r.parts.flatMap(p => Plan.matching(BenchClasses.listing(p.module), p.regex))

  private def classOf(benchmark: String): String = benchmark.take(benchmark.lastIndexOf('.'))

  test("the bench modules list their benchmarks"):
    assert(BenchClasses.listing(Module.Bench).contains("weft.bench.Compose3.weft"))
    assert(
      BenchClasses.listing(Module.BenchScala2).contains("weft.bench.scala2.Compose3.asyncAwait")
    )

  test("a JMH workload's contenders are exactly the benchmark methods its parts select"):
    for (w, r) <- jmhWorkloads do
      val methods = selected(r).map(JmhJson.contenderOf)
      assert(methods.nonEmpty, s"${w.id}: its parts select no benchmark")
      assertEquals(methods.sorted, w.contenders.map(_.id).sorted, w.id)

  test("every benchmark method of a registered bench class is a declared contender"):
    val registered = jmhWorkloads.flatMap((_, r) =>
      r.parts.flatMap(p => selected(Runner.Jmh(Seq(p), r.mode, full = r.full)).map(classOf))
    ).toSet
    for
      module <- Module.values.toSeq
      benchmark <- BenchClasses.listing(module) if registered(classOf(benchmark))
    do
      val method = JmhJson.contenderOf(benchmark)
      assert(Contender.byId(method).isDefined, s"$benchmark is no declared Contender")

  test("a workload names its contenders once, and its other fields only among them"):
    for w <- Workloads.all do
      val mine = w.contenders.toSet
      assert(w.contenders.nonEmpty, s"${w.id} names no contenders")
      assertEquals(w.contenders.distinct, w.contenders, w.id)
      val judged = if w.targets.isEmpty then Set.empty else Set(w.judgedAs)
      val named = w.shownOnly ++ w.notInQuickContenders ++ judged ++
        w.targets.collect { case Target.WithinFactorOf(c, _) => c } ++
        w.published.flatMap(_.ours)
      assertEquals(named -- mine, Set.empty[Contender], w.id)

  test("every declared contender is a row of some workload or a method of a bench class"):
    val rows = Workloads.all.flatMap(_.contenders).map(_.id).toSet
    val methods = Module.values.toSeq.flatMap(BenchClasses.listing).map(JmhJson.contenderOf).toSet
    for c <- Contender.values do
      assert(rows(c.id) || methods(c.id), s"$c is declared but nothing measures it")

  test("a quick plan over the real listings runs each workload's contenders but those left out"):
    // the plan as `Main` makes it, on the reflected listings; harnesses and workloads whose
    // program is missing are skipped here (no classpath, perhaps no memcached)
    val plan = Plan.make(Workloads.all, RunMode.Quick, BenchClasses.listing, _ => "")
    val measured = plan.jobs.collect { case j: Job.JmhRun => j }
      .groupMapReduce(_.workload)(_.benchmarks.map(JmhJson.contenderOf).toSet)(_ ++ _)
    assert(measured.size >= 25, measured.keys.map(_.id))
    for (w, names) <- measured do
      val expected = w.contenders.filterNot(w.notInQuickContenders).map(_.id).toSet
      assertEquals(names, expected, w.id)

  test("harness ids are distinct"):
    val ids = Contender.values.toSeq.map(_.id)
    assertEquals(ids.distinct, ids)
