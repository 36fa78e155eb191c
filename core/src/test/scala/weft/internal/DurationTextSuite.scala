package weft.internal

import scala.concurrent.duration.*
import weft.internal.runtime.DurationText
import weft.resilience.{CircuitBreaker, CircuitBreakerOpenException}

/** Durations in messages read as durations: a unit that fits, three significant digits. */
class DurationTextSuite extends munit.FunSuite:

  test("each magnitude in its own unit, never as a count of nanoseconds"):
    assertEquals(DurationText(1997113815.nanos), "2 s")
    assertEquals(DurationText(1500.millis), "1.5 s")
    assertEquals(DurationText(200.millis), "200 ms")
    assertEquals(DurationText(40.micros), "40 µs")
    assertEquals(DurationText(12345.nanos), "12.3 µs")
    assertEquals(DurationText(7.nanos), "7 ns")
    assertEquals(DurationText(90.seconds), "1.5 min")
    assertEquals(DurationText(2.hours), "2 h")
    assertEquals(DurationText(3.days), "3 d")
    assertEquals(DurationText(Duration.Zero), "0 s")
    assertEquals(DurationText(-2.seconds), "-2 s")
    assertEquals(DurationText.ofNanos(Long.MinValue), "-107000 d")

  test("a value at or just under a unit's size reads in that unit"):
    assertEquals(DurationText(1.second), "1 s")
    assertEquals(DurationText(60.seconds), "1 min")
    assertEquals(DurationText(1.milli), "1 ms")
    assertEquals(DurationText(999_999_999.nanos), "1 s")
    assertEquals(DurationText(999_960.micros), "1 s")
    assertEquals(DurationText(59_999.millis), "1 min")
    assertEquals(DurationText(999.nanos), "999 ns")

  test("a circuit breaker's rejection says when to retry as a duration"):
    val e = CircuitBreakerOpenException(CircuitBreaker.State.Open, 1997113815.nanos)
    assert(e.getMessage.endsWith("(retry after 2 s)"), e.getMessage)
