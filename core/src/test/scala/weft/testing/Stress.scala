package weft.testing

/**
 * The two sizes of the slow checks (Lincheck runs, cancellation storms), as kotlinx.coroutines
 * keeps its stress tests apart: `./sbtw test` runs every test, the slow ones as a short sample;
 * `./sbtw stress` runs only the tests tagged [[tag]], at full size (`WEFT_STRESS=full`).
 * `.ci/run` runs both.
 */
object Stress:

  /** Whether this run is the full stress run. */
  val full: Boolean = sys.env.get("WEFT_STRESS").contains("full")

  /** The tag of a slow check: `test("...".tag(Stress.tag))`. */
  val tag: munit.Tag = munit.Tag("Stress")

  /** `full` in the stress run, `sample` otherwise. */
  def size(full: Int, sample: Int): Int = if Stress.full then full else sample
