package weft.shootout

class PartialFailureSuite extends munit.FunSuite:

  private val job = Fixtures.compose3Job

  // As JMH prints it when a @TearDown(Level.Trial) throws after the last iteration: the
  // iterations before it are still summarised as a result.
  private val log = Seq(
    "# Benchmark: weft.bench.Compose3.catsEffect",
    "Iteration   1: 190000.0 ns/op",
    "Iteration   2: <failure>",
    "",
    "java.lang.IllegalStateException: skipped work: the server counted 816 gets (expected 1264)",
    "Result \"weft.bench.Compose3.catsEffect\":",
    "  190267.794 ns/op",
    "# Benchmark: weft.bench.Compose3.ox",
    "Result \"weft.bench.Compose3.ox\":",
    "  164.228 ns/op"
  )

  test("a benchmark whose log shows a <failure> is FAILED even though JMH scored part of it"):
    val records = JmhRunner.withoutFailed(JmhRunner.resultsFromLog(log, job), log)
    assertEquals(records.map(_.contender), Seq("ox"))
    val rows = Rows.fromJmh(
      Workloads.compose3,
      Module.Bench,
      Mode.AverageTime,
      Fixtures.params,
      20,
      Seq("weft.bench.Compose3.catsEffect", "weft.bench.Compose3.ox"),
      records,
      JmhRunner.failureReason(log, "l.log", "weft.bench.Compose3.catsEffect", None)
    )
    assertEquals(rows.map(r => (r.contender, r.failed)), Seq(("catsEffect", true), ("ox", false)))
    assert(rows.head.failure.exists(_.contains("skipped work")), rows.head.failure)

  test("a failure in one benchmark's section does not touch the others"):
    assert(JmhRunner.failedInLog(log, "weft.bench.Compose3.catsEffect"))
    assert(!JmhRunner.failedInLog(log, "weft.bench.Compose3.ox"))
    assert(!JmhRunner.failedInLog(log, "weft.bench.Compose3.weft"))
