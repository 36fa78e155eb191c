package weft.shootout

import java.io.File
import org.knowm.xchart.{BitmapEncoder, CategoryChart, CategoryChartBuilder}
import org.knowm.xchart.BitmapEncoder.BitmapFormat
import org.knowm.xchart.style.Styler.LegendPosition
import scala.jdk.CollectionConverters.*

/** Bar charts of a workload's scores (XChart, headless PNG). */
object Charts:

  /**
   * A chart of `rows` (one workload): contenders along x, one series per thread count. Failed
   * benchmarks are drawn as 0 and named in the title.
   */
  def chart(w: Workload, rows: Seq[Row]): CategoryChart =
    System.setProperty("java.awt.headless", "true")
    val contenders = rows.map(_.contender).distinct
    val better = if w.higherIsBetter then "higher is better" else "lower is better"
    val failed = rows.filter(_.failed).map(_.contender).distinct
    val title = s"${w.id}: ${w.unit}, $better" + (if failed.isEmpty then ""
                                                  else s" (FAILED: ${failed.mkString(", ")})")
    val chart =
      CategoryChartBuilder().width(960).height(540).title(title).xAxisTitle("contender").yAxisTitle(
        w.unit
      ).build()
    val styler = chart.getStyler
    styler.setLegendPosition(LegendPosition.InsideNW)
    styler.setXAxisLabelRotation(30)
    styler.setLegendVisible(rows.map(_.threads).distinct.size > 1)
    for threads <- rows.map(_.threads).distinct.sorted do
      val values = contenders.map(c =>
        rows.find(r => r.contender == c && r.threads == threads).flatMap(_.score).getOrElse(0.0)
      )
      chart.addSeries(
        s"$threads thread${if threads == 1 then "" else "s"}",
        contenders.asJava,
        values.map(d => java.lang.Double.valueOf(d): Number).asJava
      )
    chart

  /** Writes the chart of `rows` to `file` (PNG). */
  def writePng(w: Workload, rows: Seq[Row], file: File): Unit =
    file.getParentFile.mkdirs()
    val base = file.getPath.stripSuffix(".png")
    BitmapEncoder.saveBitmap(chart(w, rows), base, BitmapFormat.PNG)
