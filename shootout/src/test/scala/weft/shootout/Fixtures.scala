package weft.shootout

import java.nio.charset.StandardCharsets

/** Test data: a trimmed real JMH result (`compose-3` at 3 threads) and rows built from it. */
object Fixtures:

  /** The text of `jmh-compose3-t3.json`: catsEffect (error "NaN") and weft (3 iterations). */
  def compose3Json: String =
    val in = getClass.getResourceAsStream("/jmh-compose3-t3.json")
    try String(in.readAllBytes(), StandardCharsets.UTF_8)
    finally in.close()

  /** The benchmarks the compose-3 job expected; `ox` has no result in the fixture. */
  val expected: Seq[String] =
    Seq("weft.bench.Compose3.catsEffect", "weft.bench.Compose3.ox", "weft.bench.Compose3.weft")

  /** Quick-mode parameters, as in the fixture. */
  val params: Params = Params(3, "1s", 3, "1s", 1)

  /** The compose-3 job at 20 threads, for the tests that read a JMH log of it. */
  def compose3Job: Job.JmhRun =
    new Job.JmhRun(
      Workloads.compose3,
      JmhPart(Module.Bench, "x"),
      Mode.AverageTime,
      params,
      20,
      expected
    )

  /** Rows of the fixture, with ratios. */
  def compose3Rows: Seq[Row] =
    Rows.withRatios(
      Rows.fromJmh(
        Workloads.compose3,
        Module.Bench,
        Mode.AverageTime,
        params,
        3,
        expected,
        JmhJson.parse(compose3Json),
        "no result from JMH"
      )
    )

  /** A row of `w` for `contender` whose score is the middle of the 95% interval `[low, high]`. */
  def intervalRow(
      w: Workload,
      contender: String,
      low: Double,
      high: Double,
      threads: Int = 1
  ): Row =
    Row(
      w.id,
      contender,
      threads,
      Some((low + high) / 2),
      None,
      w.unit,
      w.higherIsBetter,
      Rows.jmhParams(threads, Module.Bench, s"x.$contender", Mode.AverageTime, Params.quick),
      interval = Some(Interval(low, high, Interval.Level))
    )

  /** A quick run's header on an idle 2-core machine. */
  def quickRunInfo: RunInfo = RunInfo(
    RunMode.Quick,
    java.time.Instant.EPOCH,
    1,
    Machine("cpu", 2, 1L << 34, "os", "jdk", 0.5),
    0.5,
    Nil,
    None,
    None,
    Nil
  )
