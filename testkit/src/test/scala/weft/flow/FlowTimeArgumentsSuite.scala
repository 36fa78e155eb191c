package weft.flow

import scala.concurrent.duration.*
import weft.testing.Deadlined

/**
 * The time operators' refusals of bad durations print the duration as every weft message does
 * (`-1.5 s`, `0 s`), never as `FiniteDuration.toString` (`-1500 milliseconds`, `0 days`, or raw
 * nanoseconds for a computed one).
 */
class FlowTimeArgumentsSuite extends munit.FunSuite, Deadlined:

  private val computed = (3 * 500).millis - 3.seconds // -1.5 s, as a computed duration

  private def refused(body: => Any): String = intercept[IllegalArgumentException](body).getMessage

  test("each time operator names a bad duration in weft's duration text"):
    assertEquals(refused(Flow.tick(Duration.Zero)), "tick: period must be > 0, was 0 s")
    assertEquals(refused(Flow(1).throttle(1, computed)), "throttle: per must be > 0, was -1.5 s")
    assertEquals(
      refused(Flow(1).groupedWithin(2, computed)),
      "groupedWithin: within must be > 0, was -1.5 s"
    )
    assertEquals(refused(Flow(1).debounce(Duration.Zero)), "debounce: quiet must be > 0, was 0 s")
    assertEquals(refused(Flow(1).timeout(computed)), "timeout: timeout must be >= 0, was -1.5 s")
