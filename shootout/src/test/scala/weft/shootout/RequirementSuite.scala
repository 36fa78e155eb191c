package weft.shootout

class RequirementSuite extends munit.FunSuite:

  private val needsNothing = Requirement("sh", "never shown", dirs = Seq("/bin", "/usr/bin"))
  private val absent = Requirement("no-such-program-weft", "install it with care", dirs = Nil)

  private def plan(w: Workload, mode: RunMode = RunMode.Quick) =
    Plan.make(Seq(w), mode, _ => Seq("weft.bench.memcached.MemcachedSetGetBench.weft"), _ => "")

  test("a workload whose program is missing is skipped, saying how to install it"):
    val p = plan(MemcachedWorkloads.setGet.copy(requires = Seq(absent)))
    assertEquals(p.jobs, Nil)
    assertEquals(p.skipped.map(_._1.id), Seq("memcached-setget"))
    assert(p.skipped.head._2.contains("no-such-program-weft"), p.skipped)
    assert(p.skipped.head._2.contains("install it with care"), p.skipped)

  test("a missing program is looked up in the given directories and on the PATH"):
    assert(absent.find("").isEmpty)
    assert(needsNothing.find("").isDefined)
    assertEquals(Requirement("sh", "x", dirs = Nil).find("/no/dir:/bin").map(_.getName), Some("sh"))

  test("with the program present, full mode adds its full-only thread counts"):
    val w = MemcachedWorkloads.setGet.copy(requires = Seq(needsNothing))
    def threads(m: RunMode) = plan(w, m).jobs.collect { case j: Job.JmhRun => j.threads }
    assertEquals(threads(RunMode.Quick), Seq(4, 32))
    assertEquals(threads(RunMode.Smoke), Seq(4, 32))
    assertEquals(threads(RunMode.Full), Seq(4, 32, 1, 128))
