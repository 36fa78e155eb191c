package weft.shootout

import java.awt.Color
import java.io.File
import java.util.Locale
import org.knowm.xchart.{BitmapEncoder, CategoryChart, CategoryChartBuilder}
import org.knowm.xchart.BitmapEncoder.BitmapFormat
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle
import org.knowm.xchart.style.Styler.{LegendLayout, LegendPosition}
import org.knowm.xchart.style.markers.SeriesMarkers
import scala.jdk.CollectionConverters.*

/**
 * The report's charts (XChart, headless PNG): one bar chart per workload, with error bars from
 * the 95% intervals, and the overview of weft's speedups.
 *
 * A chart whose positive values span more than [[Charts.LogSpan]] times is drawn on a log scale
 * so small bars stay visible. XChart's own log axis draws error bars wrongly and cannot start
 * bars at zero, so a log chart plots `log10(value)` on a linear axis and labels its ticks with
 * the values themselves; its error bar is the wider of the interval's two sides in log space.
 * Tick labels are plain numbers (`100,000`, never `1E5`). `ChartsSuite` re-checks both.
 */
object Charts:

  /** Above this ratio of largest to smallest positive value, the value axis is logarithmic. */
  val LogSpan: Double = 100.0

  /** How weft's own contenders are marked on the category axis. */
  def label(contender: String): String =
    if contender.startsWith(Workloads.Baseline) then s"» $contender" else contender

  /** Whether values spanning `values` want a logarithmic axis. */
  def wantsLog(values: Seq[Double]): Boolean =
    val positive = values.filter(_ > 0)
    positive.nonEmpty && positive.max / positive.min > LogSpan

  /** A tick label: plain digits with separators, no exponent. */
  def tick(d: Double): String =
    def digits(n: Int) =
      BigDecimal(d).round(java.math.MathContext(n)).bigDecimal.stripTrailingZeros.toPlainString
    if d == 0 then "0"
    else if math.abs(d) >= 1000 then String.format(Locale.ROOT, "%,.0f", d)
    else if math.abs(d) >= 1 then digits(3)
    else digits(2)

  /** How values map to the axis: as they are, or as `log10`, with tick labels to match. */
  final case class Scale(log: Boolean):
    /** The axis position of `v` (> 0 on a log scale). */
    def apply(v: Double): Double = if log then math.log10(v) else v

    /** The error bar of `v` with interval `[low, high]`: the wider side, in axis units. */
    def error(v: Double, low: Double, high: Double): Double =
      if !log then math.max(v - low, high - v)
      else math.max(math.log10(high / v), if low > 0 then math.log10(v / low) else 0.0)

    /** Labels an axis position with its value. */
    def label(axis: Double): String = tick(if log then math.pow(10, axis) else axis)

  private def style(chart: CategoryChart, scale: Scale): Unit =
    val styler = chart.getStyler
    styler.setXAxisLabelRotation(30)
    styler.setyAxisTickLabelsFormattingFunction(d => scale.label(d.doubleValue))
    styler.setErrorBarsColor(Color.BLACK)

  private def nums(ds: Seq[Double]) = ds.map(d => java.lang.Double.valueOf(d): Number).asJava

  /**
   * A chart of `rows` (one workload): contenders along x, weft's marked `»`, one series per
   * thread count, error bars from the intervals. Failed benchmarks have no bar and are named in
   * the title.
   */
  def chart(w: Workload, rows: Seq[Row]): CategoryChart =
    System.setProperty("java.awt.headless", "true")
    val contenders = Report.ordered(rows).map(_.contender).distinct
    val better = if w.higherIsBetter then "higher is better" else "lower is better"
    val failed = rows.filter(_.failed).map(_.contender).distinct
    val scale = Scale(wantsLog(rows.flatMap(_.score)))
    val title = s"${w.id}: ${w.unit}, $better" + (if scale.log then ", log scale" else "") +
      (if failed.isEmpty then "" else s" (FAILED: ${failed.mkString(", ")})")
    val chart = CategoryChartBuilder().width(960).height(540).title(title)
      .xAxisTitle("contender (» weft; error bars: 95% intervals)")
      .yAxisTitle(w.unit + (if scale.log then " (log scale)" else "")).build()
    style(chart, scale)
    chart.getStyler.setLegendPosition(LegendPosition.OutsideE)
    chart.getStyler.setLegendVisible(rows.map(_.threads).distinct.size > 1)
    // On a log scale the bars start at the decade below the smallest score.
    val positive = rows.flatMap(_.score).filter(_ > 0)
    val base = if scale.log && positive.nonEmpty then math.floor(math.log10(positive.min)) else 0.0
    for threads <- rows.map(_.threads).distinct.sorted do
      val here = contenders.map(c => rows.find(r => r.contender == c && r.threads == threads))
      val bars = here.map { r =>
        r.flatMap(_.score).filter(_ > 0 || !scale.log) match
          case None => (base, 0.0)
          case Some(v) =>
            val err = r.flatMap(_.interval).filterNot(_.pointOnly).fold(0.0)(i =>
              scale.error(v, i.low, i.high)
            )
            (scale(v), err)
      }
      chart.addSeries(
        s"$threads thread${if threads == 1 then "" else "s"}",
        contenders.map(label).asJava,
        nums(bars.map(_._1 - base)),
        nums(bars.map(_._2))
      )
    if base != 0 then
      chart.getStyler.setyAxisTickLabelsFormattingFunction(d => scale.label(d.doubleValue + base))
    chart

  /** Speedups drawn within 1/10,000 to 10,000 (an unbounded end is drawn at the edge). */
  private def clamp(d: Double) = math.min(math.max(d, 1e-4), 1e4)

  /**
   * The overview: per workload and thread count, weft's speedup over its target's reference (or
   * over the best peer when there is no target) on a log scale, bars up from 1 when weft is
   * ahead and down when behind; the interval's ends and the target's limit as markers.
   */
  def overview(lines: Seq[Overview.Line]): CategoryChart =
    System.setProperty("java.awt.headless", "true")
    val shown = lines.filter(_.comparison.exists(_.speedup.point > 0))
    val cats = shown.map(_.label).asJava
    val cs = shown.map(_.comparison.get)
    val scale = Scale(log = true)
    val chart = CategoryChartBuilder().width(1400).height(760)
      .title(
        "weft's speedup over its target's reference (no target: over the best peer); above 1 weft is ahead"
      )
      .xAxisTitle("workload").yAxisTitle("speedup (log scale)").build()
    style(chart, scale)
    chart.getStyler.setXAxisLabelRotation(60)
    chart.getStyler.setOverlapped(true)
    chart.getStyler.setLegendPosition(LegendPosition.OutsideS)
    chart.getStyler.setLegendLayout(LegendLayout.Horizontal)
    if !shown.isEmpty then
      chart.addSeries("weft's speedup", cats, nums(cs.map(c => scale(clamp(c.speedup.point)))))
      def ends(
          name: String,
          end: Speedup => Double,
          marker: org.knowm.xchart.style.markers.Marker
      ) =
        val s = chart.addSeries(
          name,
          cats,
          nums(cs.map(c =>
            scale(clamp(if c.speedup.pointOnly then c.speedup.point else end(c.speedup)))
          ))
        )
        s.setChartCategorySeriesRenderStyle(CategorySeriesRenderStyle.Scatter)
        s.setMarker(marker)
        s.setMarkerColor(Color.BLACK)
      ends("95% interval, high end", _.high, SeriesMarkers.TRIANGLE_DOWN)
      ends("95% interval, low end", _.low, SeriesMarkers.TRIANGLE_UP)
      val target = chart.addSeries(
        "target's limit (no target: 1, even)",
        cats,
        nums(cs.map(c => scale(if c.limit.isNaN then 1.0 else clamp(c.limit))))
      )
      target.setChartCategorySeriesRenderStyle(CategorySeriesRenderStyle.Scatter)
      target.setMarker(SeriesMarkers.DIAMOND)
      target.setMarkerColor(Color.RED)
    chart

  /**
   * Writes `chart` to `file` (PNG); a chart without a series (every row of its workload
   * FAILED) is not drawn: xchart throws on one, which ended the whole report unwritten.
   */
  def writePng(chart: CategoryChart, file: File): Unit =
    if !chart.getSeriesMap.isEmpty then
      file.getParentFile.mkdirs()
      BitmapEncoder.saveBitmap(chart, file.getPath.stripSuffix(".png"), BitmapFormat.PNG)

  /** Writes the chart of `rows` to `file` (PNG). */
  def writePng(w: Workload, rows: Seq[Row], file: File): Unit = writePng(chart(w, rows), file)
