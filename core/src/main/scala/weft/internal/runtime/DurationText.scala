package weft
package internal.runtime

import scala.concurrent.duration.FiniteDuration
import weft.internal.InternalApi

/**
 * A duration as a message shows it: in the largest unit that keeps it at or above 1 (ns, µs, ms,
 * s, min, h, d), with at most three significant digits (`2 s`, `1.5 s`, `200 ms`, `40 µs`), never
 * as the raw count of nanoseconds `FiniteDuration.toString` prints for a computed duration
 * (`1997113815 nanoseconds`). The one formatter of every message of core, `weft-io` and
 * `weft-memcached` that prints a duration (`DurationTextSuite`).
 */
@InternalApi
object DurationText:

  private val Units: Array[(Long, String)] = Array(
    (86_400_000_000_000L, "d"),
    (3_600_000_000_000L, "h"),
    (60_000_000_000L, "min"),
    (1_000_000_000L, "s"),
    (1_000_000L, "ms"),
    (1_000L, "µs"),
    (1L, "ns")
  )

  private val Three = java.math.MathContext(3)

  /** `d` as text, e.g. `1.5 s`. */
  def apply(d: FiniteDuration): String = ofNanos(d.toNanos)

  /** `nanos` nanoseconds as text, e.g. `200 ms`; zero is `0 s`. */
  def ofNanos(nanos: Long): String =
    if nanos == 0L then "0 s"
    else
      // the magnitude as a BigInt: `-Long.MinValue` does not fit a Long
      val magnitude = BigInt(nanos).abs
      // Rounded in each unit, largest first: the unit is the largest in which the rounded value
      // is at least 1, so a value just under a unit's size (999.96 ms) reads `1 s`, never
      // `1000 ms` (`DurationTextSuite`, "a value at or just under a unit's size").
      val value = Units.iterator
        .map((size, unit) => (BigDecimal(magnitude) / BigDecimal(size)).round(Three) -> unit)
        .find((v, _) => v >= 1)
        .getOrElse(BigDecimal(magnitude) -> "ns")
      val (amount, unit) = value
      val text = amount.bigDecimal.stripTrailingZeros.toPlainString
      val sign = if nanos < 0 then "-" else ""
      s"$sign$text $unit"
