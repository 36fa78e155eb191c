package weft.bench.memcached

import java.io.File
import java.lang.management.ManagementFactory
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Files
import scala.jdk.CollectionConverters.*

/**
 * The shootout's external runner for the open-loop latency workloads
 * (`memcached-openloop-p50`, `-p99`, `-p999`): runs [[OpenLoopRun]] in one fresh JVM per
 * contender, each with the same JVM flags as this one, and in it several independent blocks
 * per offered load ([[OpenLoopRun]], "Blocks"); finds the highest load every contender which
 * did not fail sustained ([[OpenLoopStats.judgedLoad]]), and reports each contender's p50, p99
 * and p99.9 there (in µs, `"metric"` naming the percentile): the score is the geometric mean over the
 * blocks and `"samples"` the block values, from which the shootout computes the 95% interval.
 * Without such a load there are no scores (the shootout reports the rows FAILED); a smoke
 * run's single load counts anyway.
 *
 * Beside the JSON it writes, in the same directory: `<name>-openloop.md` (every contender at
 * every load: the table the report appends), `memcached-openloop-curves.json` (latency by
 * percentile at that load, per contender, and p99 by offered load: the shootout draws them)
 * and `memcached-openloop-server.jsonl` (the server's CPU per get at that load, see
 * [[ServerDetails]]).
 *
 * Usage: `OpenLoop --contenders weft,spyAscii,... --out <file.json> --mode <quick|full|smoke>`
 * (the shootout's workload declares the contenders: every client, ascii and binary, xmemcached
 * with get merging off, and each client's asynchronous spelling where it has one).
 */
object OpenLoop:

  /**
   * How one mode measures: the offered loads (gets/s), blocks per load, a window's size (at
   * least `minGets` gets and `minSeconds` seconds), the warm-up of a JVM's first block and of
   * every other block, in seconds.
   */
  final case class Settings(
      rates: Seq[Int],
      blocks: Int,
      minGets: Long,
      minSeconds: Double,
      firstWarm: Double,
      blockWarm: Double
  ):
    /** The gets of one window at `rate`. */
    def gets(rate: Int): Long = math.max(minGets, (rate * minSeconds).toLong)

  /**
   * The settings of each mode. A p99 needs enough requests per window to be more than its few
   * slowest (20,000 gets put 200 above it), so windows are sized by count, and loads low
   * enough that a window lasts seconds are left out: quick mode measures 10,000, 20,000 and
   * 40,000 gets/s, where every client completed its windows in earlier runs (at 80,000 some
   * did not, or only with p99s of tens of milliseconds), 5 blocks of 20,000 gets each, to stay
   * within its time budget (shootout/README.md, "Quick mode, measured").
   */
  def settings(mode: String): Settings = mode match
    case "smoke" => Settings(Seq(200), 2, 100, 0, 0.3, 0.1)
    case "full"  => Settings(Seq(5000, 10_000, 20_000, 40_000, 80_000), 8, 40_000, 2.0, 3.0, 0.5)
    case _       => Settings(Seq(10_000, 20_000, 40_000), 5, 20_000, 0, 2.0, 0.3)

  /**
   * The client behind a row and whether the row is its asynchronous spelling: `weftPipelined`
   * is weft through `client.pipelined`, `<peer>Async` the peer's own asynchronous get.
   */
  def spelling(row: String): (String, Boolean) =
    if row == "weftPipelined" then ("weft", true)
    else if row.endsWith("Async") then (row.stripSuffix("Async"), true)
    else (row, false)

  /** Entry point. */
  def main(args: Array[String]): Unit =
    val opts = args.sliding(2, 1).collect { case Array(k, v) if k.startsWith("--") => k -> v }.toMap
    val out =
      File(opts.getOrElse("--out", throw IllegalArgumentException("--out <file> is required")))
    val mode = opts.getOrElse("--mode", "quick")
    val contenders = opts
      .getOrElse("--contenders", throw IllegalArgumentException("--contenders a,b,... is required"))
      .split(',').toSeq.filter(_.nonEmpty)
    val set = settings(mode)
    val runs = contenders.map(c => c -> runOne(c, set))
    val blocks = runs.flatMap(_._2._1)
    val loads = OpenLoopStats.loads(blocks)
    // A smoke run proves the harness works and measures nothing: its one load counts even
    // when a cold JVM did not sustain it.
    val smoke = mode == "smoke"
    val crashed = runs.collect { case (c, (_, Some(why), _)) => c -> why }.toMap
    val none =
      OpenLoopStats.sustainedNone(loads, contenders.filterNot(crashed.contains), smoke)
    val failed = crashed ++ none
    val alive = contenders.filterNot(failed.contains)
    val top = OpenLoopStats.judgedLoad(loads, alive, set.rates, countAnyway = smoke)
    val at = top.toSeq.flatMap(r => loads.filter(l => l.rate == r && alive.contains(l.contender)))
    val dir = out.getAbsoluteFile.getParentFile
    Files.writeString(out.toPath, OpenLoopTables.scoresJson(contenders, at), UTF_8)
    Files.writeString(
      File(dir, out.getName.stripSuffix(".json") + "-openloop.md").toPath,
      OpenLoopTables.markdown(loads, failed, set, top, mode),
      UTF_8
    )
    Files.writeString(
      File(dir, "memcached-openloop-curves.json").toPath,
      OpenLoopTables.curvesJson(runs.map((c, r) => c -> r._3), loads, top, set.rates.minOption),
      UTF_8
    )
    val cpu = at.filter(_.blocks.forall(_.cpuNanos >= 0)).flatMap(l =>
      Seq("p50", "p99", "p999").map(m =>
        s"""{"workload": "memcached-openloop-$m", "contender": "${l.contender}", "threads": 1, """ +
          s""""measuredOps": ${l.blocks.map(_.sent).sum}, "serverCpuNanos": ${l.blocks
              .map(_.cpuNanos).sum}}"""
      )
    )
    Files.writeString(
      File(dir, "memcached-openloop-server.jsonl").toPath,
      cpu.map(_ + "\n").mkString,
      UTF_8
    )

  /**
   * Runs one contender's JVM: its blocks, why it failed (if it did), and its percentile curve
   * at each load, pooled over the blocks (`rate -> [(percentile, µs)]`).
   */
  private def runOne(
      contender: String,
      set: Settings
  ): (Seq[OpenLoopBlock], Option[String], Map[Int, Seq[(Double, Double)]]) =
    val java = File(File(System.getProperty("java.home"), "bin"), "java").getPath
    val flags = ManagementFactory.getRuntimeMXBean.getInputArguments.asScala.toSeq
      .filterNot(_.startsWith("-agentlib"))
    val cmd = Seq(java) ++ flags ++ Seq(
      "-cp",
      System.getProperty("java.class.path"),
      "weft.bench.memcached.OpenLoopRun",
      contender,
      set.rates.map(r => s"$r:${set.gets(r)}").mkString(","),
      set.blocks.toString,
      set.firstWarm.toString,
      set.blockWarm.toString
    )
    System.err.println(
      s"open loop: $contender at ${set.rates.mkString(", ")} gets/s, ${set.blocks} blocks each"
    )
    // The clients log to stderr (spymemcached without a newline between its prefix and its
    // message), so stderr goes straight to this JVM's and only stdout carries the results: a
    // merged stream split result lines.
    val p = ProcessBuilder(cmd.asJava).redirectError(ProcessBuilder.Redirect.INHERIT).start()
    val lines = scala.io.Source.fromInputStream(p.getInputStream, "UTF-8").getLines().toList
    p.waitFor()
    lines.filterNot(l => l.startsWith("BLOCK ") || l.startsWith("CURVE ")).foreach(
      System.err.println
    )
    val blocks = lines.filter(_.startsWith("BLOCK ")).map(_.split(' ')).collect {
      case Array(_, c, r, i, s, sent, in, p50, p99, p999, max, cpu) =>
        OpenLoopBlock(
          c,
          r.toInt,
          i.toInt,
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
    (blocks, failure, curves)
