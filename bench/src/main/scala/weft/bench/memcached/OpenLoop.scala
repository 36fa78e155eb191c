package weft.bench.memcached

import java.io.File
import java.lang.management.ManagementFactory
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Files
import scala.jdk.CollectionConverters.*

/**
 * The shootout's external runner for the open-loop latency workloads
 * (`memcached-openloop-p50`, `-p99`, `-p999`): runs [[OpenLoopRun]] in one fresh JVM per
 * contender, each with the same JVM flags as this one, then finds the highest offered load
 * that every contender which did not fail sustained, and reports each contender's p50, p99
 * and p99.9 there (in µs, `"metric"` naming the percentile). Without such a load there are no
 * scores (the shootout reports the rows FAILED); a smoke run's single load counts anyway.
 *
 * Beside the JSON it writes, in the same directory: `<name>-openloop.md` (every contender at
 * every load: the table the report appends), `memcached-openloop-curves.json` (latency by
 * percentile at that load, per contender, and p99 by offered load: the shootout draws them)
 * and `memcached-openloop-server.jsonl` (the server's CPU per get at that load, see
 * [[ServerDetails]]).
 *
 * Usage: `OpenLoop --contenders weft,spyAscii,... --out <file.json> --mode <quick|full|smoke>`
 * (the shootout's workload declares the contenders: every client, ascii and binary, xmemcached
 * with get merging off).
 */
object OpenLoop:

  /** One contender at one load. */
  final case class Point(
      contender: String,
      rate: Int,
      sustained: Boolean,
      sent: Long,
      inWindow: Long,
      p50: Double,
      p99: Double,
      p999: Double,
      max: Double,
      cpuNanos: Long
  )

  /**
   * Offered loads (gets/s), window and warm-up seconds per mode. Quick mode starts at 2000
   * gets/s: the two lower loads only repeat the unloaded latency, and leaving them out keeps
   * the quick run within its time budget (shootout/README.md, "Quick mode, measured").
   */
  def ladder(mode: String): (Seq[Int], Double, Double) = mode match
    case "smoke" => (Seq(200), 0.5, 0.5)
    case "full"  => (Seq(500, 1000, 2000, 5000, 10_000, 20_000, 40_000, 80_000), 10.0, 5.0)
    case _       => (Seq(2000, 5000, 10_000, 20_000, 40_000, 80_000), 3.0, 3.0)

  /** Entry point. */
  def main(args: Array[String]): Unit =
    val opts = args.sliding(2, 1).collect { case Array(k, v) if k.startsWith("--") => k -> v }.toMap
    val out =
      File(opts.getOrElse("--out", throw IllegalArgumentException("--out <file> is required")))
    val mode = opts.getOrElse("--mode", "quick")
    val contenders = opts
      .getOrElse("--contenders", throw IllegalArgumentException("--contenders a,b,... is required"))
      .split(',').toSeq.filter(_.nonEmpty)
    val (rates, window, warm) = ladder(mode)
    val runs = contenders.map(c => c -> runOne(c, rates, window, warm))
    val points = runs.flatMap(_._2._1)
    val failed = runs.collect { case (c, (_, Some(why), _)) => c -> why }.toMap
    val alive = contenders.filterNot(failed.contains)
    // A smoke run proves the harness works and measures nothing: its one load counts even
    // when a cold JVM did not sustain it.
    val top = rates.filter(r =>
      alive.nonEmpty && alive.forall(c =>
        points.exists(p => p.contender == c && p.rate == r && (p.sustained || mode == "smoke"))
      )
    ).maxOption
    val at =
      top.toSeq.flatMap(r => points.filter(p => p.rate == r && !failed.contains(p.contender)))
    val json = contenders.flatMap { c =>
      val p = at.find(_.contender == c)
      Seq("p50" -> p.map(_.p50), "p99" -> p.map(_.p99), "p999" -> p.map(_.p999)).map((m, v) =>
        s"""{"contender": "$c", "metric": "$m", "score": ${v.fold("null")(
            _.toString
          )}, "error": null}"""
      )
    }
    val dir = out.getAbsoluteFile.getParentFile
    Files.writeString(out.toPath, json.mkString("[", ",\n", "]\n"), UTF_8)
    Files.writeString(
      File(dir, out.getName.stripSuffix(".json") + "-openloop.md").toPath,
      OpenLoopTables.markdown(points, failed, rates, top, window, mode),
      UTF_8
    )
    Files.writeString(
      File(dir, "memcached-openloop-curves.json").toPath,
      OpenLoopTables.curvesJson(runs.map((c, r) => c -> r._3), points, top),
      UTF_8
    )
    val cpu = at.filter(_.cpuNanos >= 0).flatMap(p =>
      Seq("p50", "p99", "p999").map(m =>
        s"""{"workload": "memcached-openloop-$m", "contender": "${p.contender}", "threads": 1, """ +
          s""""measuredOps": ${p.sent}, "serverCpuNanos": ${p.cpuNanos}}"""
      )
    )
    Files.writeString(
      File(dir, "memcached-openloop-server.jsonl").toPath,
      cpu.map(_ + "\n").mkString,
      UTF_8
    )

  /**
   * Runs one contender's JVM: its points, why it failed (if it did), and its percentile curve
   * at each load (`rate -> [(percentile, µs)]`).
   */
  private def runOne(
      contender: String,
      rates: Seq[Int],
      window: Double,
      warm: Double
  ): (Seq[Point], Option[String], Map[Int, Seq[(Double, Double)]]) =
    val java = File(File(System.getProperty("java.home"), "bin"), "java").getPath
    val flags = ManagementFactory.getRuntimeMXBean.getInputArguments.asScala.toSeq
      .filterNot(_.startsWith("-agentlib"))
    val cmd = Seq(java) ++ flags ++ Seq(
      "-cp",
      System.getProperty("java.class.path"),
      "weft.bench.memcached.OpenLoopRun",
      contender,
      rates.mkString(","),
      window.toString,
      warm.toString
    )
    System.err.println(s"open loop: $contender at ${rates.mkString(", ")} gets/s")
    val p = ProcessBuilder(cmd.asJava).redirectErrorStream(true).start()
    val lines = scala.io.Source.fromInputStream(p.getInputStream, "UTF-8").getLines().toList
    p.waitFor()
    lines.filterNot(l => l.startsWith("RATE ") || l.startsWith("CURVE ")).foreach(
      System.err.println
    )
    val points = lines.filter(_.startsWith("RATE ")).map(_.split(' ')).collect {
      case Array(_, c, r, s, sent, in, p50, p99, p999, max, cpu) =>
        Point(
          c,
          r.toInt,
          s == "1",
          sent.toLong,
          in.toLong,
          p50.toDouble,
          p99.toDouble,
          p999.toDouble,
          max.toDouble,
          cpu.toLong
        )
    }
    val curves = lines.filter(_.startsWith("CURVE ")).map(_.split(' ')).collect {
      case Array(_, _, r, pts) =>
        r.toInt -> pts.split(',').toSeq.map { kv =>
          val Array(k, v) = kv.split(':')
          (k.toDouble, v.toDouble)
        }
    }.toMap
    val failure =
      if lines.exists(_.startsWith("DONE ")) then None
      else
        Some(lines.find(_.startsWith("FAILED ")).fold(s"no result (exit ${p.exitValue})")(
          _.split(' ').drop(2).mkString(" ")
        ))
    (points, failure, curves)
