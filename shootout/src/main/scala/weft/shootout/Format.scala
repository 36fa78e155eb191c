package weft.shootout

import java.util.Locale

/** Number formatting shared by the report and the console. */
object Format:

  /** A score with thousands separators and sensible precision. */
  def number(d: Double): String =
    if d.isNaN then "NaN"
    else if math.abs(d) >= 1000 then String.format(Locale.ROOT, "%,.0f", d)
    else if math.abs(d) >= 10 then String.format(Locale.ROOT, "%.1f", d)
    else String.format(Locale.ROOT, "%.3f", d)

  /** A factor, `1.25x`; small ones keep two significant digits (`0.0034x`). */
  def factor(d: Double): String =
    if d.isNaN || d.isInfinite then s"${d}x"
    else if math.abs(d) >= 0.1 || d == 0 then String.format(Locale.ROOT, "%.2fx", d)
    else BigDecimal(d).round(java.math.MathContext(2)).bigDecimal.toPlainString + "x"

  /** A duration in seconds as `1h02m`, `3m05s` or `42s`. */
  def duration(seconds: Double): String =
    val s = math.max(0L, math.round(seconds))
    if s >= 3600 then f"${s / 3600}h${s % 3600 / 60}%02dm"
    else if s >= 60 then f"${s / 60}m${s % 60}%02ds"
    else s"${s}s"
