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
