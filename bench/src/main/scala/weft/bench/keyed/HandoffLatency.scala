package weft.bench.keyed

import java.io.File
import java.lang.management.ManagementFactory
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.util.SplittableRandom
import scala.jdk.CollectionConverters.*

/**
 * The shootout's external harness for the `sequentially-handoff-*` workloads: what a keyed
 * executor itself controls, with empty tasks so that nothing else is measured.
 *
 * Each round submits a batch of [[Batch]] tasks over [[Keys]] keys (a pre-drawn table, the same
 * for every contender) and waits for all of them. Every task records when it started and ended;
 * the submitter records when it submitted each. Per block of rounds:
 *
 *   - `first-p50`, `first-p99`: for the first task of each key in a batch, submit to start, µs
 *   - `gap-p50`, `gap-p99`: between consecutive tasks of one key, the end of one to the start of
 *     the next, µs: the executor's hand-off from a key's task to its next
 *   - `throughput`: batches per second
 *   - `cpu`: CPU time of the whole process per batch, µs (every thread: the executor's own cost
 *     beside the throughput it buys; a spinning executor shows here)
 *
 * Each contender runs in a fresh JVM (`--contender <id>`), started with this JVM's flags. The
 * result of a metric is the mean over the blocks with a 95% Student-t error, written as
 * `[{"contender", "metric", "score", "error"}]` to `--out`.
 *
 * Usage: `HandoffLatency --out <file.json> --mode <quick|full|smoke>`.
 */
object HandoffLatency:

  /** Keys per batch. */
  val Keys: Int = 100

  /** Tasks per batch. */
  val Batch: Int = 1000

  /** The metrics, in report order. */
  val Metrics: Seq[String] =
    Seq("first-p50", "first-p99", "gap-p50", "gap-p99", "throughput", "cpu")

  /** Warm-up seconds, blocks and seconds per block of a mode. */
  def plan(mode: String): (Double, Int, Double) = mode match
    case "smoke" => (0.3, 2, 0.2)
    case "full"  => (10.0, 10, 2.0)
    case _       => (3.0, 6, 1.0)

  /** Entry point: the parent (`--out`) or one contender's child JVM (`--contender`). */
  def main(args: Array[String]): Unit =
    val opts = args.sliding(2, 1).collect { case Array(k, v) if k.startsWith("--") => k -> v }.toMap
    val mode = opts.getOrElse("--mode", "quick")
    opts.get("--contender") match
      case Some(id) =>
        val c = HandoffContender.all(Keys).find(_.id == id).getOrElse(
          throw IllegalArgumentException(s"unknown contender $id")
        )
        println(HandoffRecorder.run(c, plan(mode), keyTable()))
        System.out.flush()
        Runtime.getRuntime.halt(0)
      case None =>
        val out = File(opts.getOrElse("--out", throw IllegalArgumentException("--out is required")))
        val rows = HandoffContender.all(Keys).flatMap(c => parent(c.id, mode))
        Files.writeString(out.toPath, rows.mkString("[", ",\n", "]\n"), StandardCharsets.UTF_8)

  /** The keys of every batch: drawn once, uniformly, from a fixed seed. */
  def keyTable(): Array[Int] =
    val rnd = SplittableRandom(28)
    Array.fill(Batch)(rnd.nextInt(Keys))

  /** Runs one contender's child JVM; its JSON rows (null scores when it failed). */
  private def parent(id: String, mode: String): Seq[String] =
    val java = File(File(System.getProperty("java.home"), "bin"), "java").getPath
    val jvmArgs = ManagementFactory.getRuntimeMXBean.getInputArguments.asScala.toSeq
    val cmd = Seq(java) ++ jvmArgs ++ Seq(
      "-cp",
      System.getProperty("java.class.path"),
      "weft.bench.keyed.HandoffLatency",
      "--contender",
      id,
      "--mode",
      mode
    )
    System.err.println(s"handoff: $id")
    val p = ProcessBuilder(cmd.asJava).redirectErrorStream(true).start()
    val lines = scala.io.Source.fromInputStream(p.getInputStream).getLines().toList
    p.waitFor()
    lines.filterNot(_.startsWith("{")).foreach(l => System.err.println(s"  $l"))
    val blocks = lines.reverse.find(_.startsWith("{\"blocks\"")).map(HandoffRecorder.parse)
    Metrics.map { m =>
      blocks.map(_.map(_(m))) match
        case Some(values) if values.nonEmpty =>
          val (mean, error) = weft.bench.Stats.meanAndError(values)
          s"""{"contender": "$id", "metric": "$m", "score": $mean, "error": ${error.fold("null")(
              _.toString
            )}}"""
        case _ => s"""{"contender": "$id", "metric": "$m", "score": null, "error": null}"""
    }
