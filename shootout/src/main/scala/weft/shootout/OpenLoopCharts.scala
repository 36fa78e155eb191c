package weft.shootout

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import org.knowm.xchart.{BitmapEncoder, CategoryChartBuilder, XYChartBuilder}
import org.knowm.xchart.BitmapEncoder.BitmapFormat
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle
import org.knowm.xchart.style.Styler.LegendPosition
import scala.jdk.CollectionConverters.*
import scala.util.Try

/**
 * The open-loop latency charts (`memcached-openloop-*`): latency by percentile at the highest
 * load every client sustained, or without one at the lowest load (one line per contender),
 * and p99 by offered load; a chart without data is not drawn. The harness
 * (`weft.bench.memcached.OpenLoop`) leaves their data in `logs/memcached-openloop-curves.json`;
 * its Markdown in the report links the two PNGs. Latencies span decades, so both charts plot
 * `log10(µs)` with value labels ([[Charts.Scale]]).
 */
object OpenLoopCharts:

  /** The data file the harness writes into the logs directory. */
  val DataFile: String = "memcached-openloop-curves.json"

  /** Writes both charts into `out` when `logs` has the data; returns the files written. */
  def write(logs: File, out: File): Seq[File] =
    val data = File(logs, DataFile)
    if !data.exists then Nil
    else
      Try(ujson.read(Files.readString(data.toPath, StandardCharsets.UTF_8))).toOption.toSeq
        .flatMap { json =>
          val percentile = File(out, "memcached-openloop-latency.png")
          val byLoad = File(out, "memcached-openloop-p99-by-load.png")
          // xchart cannot paint a chart without a series: such a chart is not drawn
          val p = byPercentile(json)
          val l = p99ByLoad(json)
          Charts.writePng(p, percentile)
          if !l.getSeriesMap.isEmpty then
            BitmapEncoder.saveBitmap(l, byLoad.getPath.stripSuffix(".png"), BitmapFormat.PNG)
          Seq(percentile -> p, byLoad -> l).collect {
            case (f, c) if !c.getSeriesMap.isEmpty => f
          }
        }

  private val scale = Charts.Scale(log = true)

  private def nums(ds: Seq[Double]) = ds.map(d => java.lang.Double.valueOf(d): Number).asJava

  /** Latency (log scale) by percentile, one line per contender, at the data's load. */
  def byPercentile(json: ujson.Value) =
    System.setProperty("java.awt.headless", "true")
    val curvesRate = json.obj.get("curvesRate").flatMap(_.numOpt)
    val rate = json("rate").numOpt match
      case Some(r) => s"${r.toInt} gets/s"
      case None =>
        curvesRate.fold("no load sustained by every client")(r =>
          s"${r.toInt} gets/s, not sustained by every client"
        )
    val chart = CategoryChartBuilder().width(960).height(540)
      .title(s"memcached get latency by percentile, open loop at $rate (lower is better)")
      .xAxisTitle("percentile").yAxisTitle("µs (log scale)").build()
    chart.getStyler.setyAxisTickLabelsFormattingFunction(d => scale.label(d.doubleValue))
    chart.getStyler.setLegendPosition(LegendPosition.OutsideE)
    chart.getStyler.setDefaultSeriesRenderStyle(CategorySeriesRenderStyle.Line)
    for (c, pts) <- json("curves").obj.toSeq do
      val ps = pts.arr.toSeq.map(p => (p(0).num, p(1).num)).filter(_._2 > 0)
      if ps.nonEmpty then
        chart.addSeries(
          Charts.label(c),
          ps.map((p, _) => percentileLabel(p)).asJava,
          nums(ps.map((_, v) => scale(v)))
        )
    chart

  /** `50`, `99.95`, or `max` for 100. */
  def percentileLabel(p: Double): String =
    if p >= 100 then "max" else BigDecimal(p).bigDecimal.stripTrailingZeros.toPlainString

  /** p99 (log scale) by offered load, one line per contender; loads not sustained included. */
  def p99ByLoad(json: ujson.Value) =
    System.setProperty("java.awt.headless", "true")
    val chart = XYChartBuilder().width(960).height(540)
      .title("memcached get p99 by offered load, open loop (lower is better)")
      .xAxisTitle("offered load (gets/s, log scale)").yAxisTitle("p99, µs (log scale)").build()
    chart.getStyler.setyAxisTickLabelsFormattingFunction(d => scale.label(d.doubleValue))
    chart.getStyler.setxAxisTickLabelsFormattingFunction(d => scale.label(d.doubleValue))
    chart.getStyler.setLegendPosition(LegendPosition.OutsideE)
    for (c, pts) <- json("p99ByRate").obj.toSeq do
      val ps = pts.arr.toSeq.map(p => (p(0).num, p(1).num)).filter((r, v) => r > 0 && v > 0)
      if ps.nonEmpty then
        chart.addSeries(
          Charts.label(c),
          nums(ps.map(p => scale(p._1))),
          nums(ps.map(p => scale(p._2)))
        )
    chart
