package weft.bench.memory

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import scala.jdk.CollectionConverters.*

/**
 * The shootout's external runner for the memory workloads: forks fresh JVMs per contender
 * ([[MemoryHarness]]), one measurement each, and writes the shootout's JSON
 * (`[{"contender", "score", "error"}]`: the mean bytes/op over the JVMs and its 95% Student-t
 * half-width) plus a Markdown file beside it with every JVM's figure and one JVM's class
 * histogram per contender.
 *
 * Usage: `MemoryShootout --out <file.json> --mode <quick|full|smoke> [--million]`. Without
 * `--million` it measures every contender at N = 100,000 (10,000 in smoke mode); with it, weft
 * and the bare virtual thread at N = 1,000,000. Every JVM of both gets the same heap, [[Heap]].
 *
 * Why several JVMs: the figure moves between JVMs of one contender with the JIT's state (a
 * virtual thread's stack chunk holds its frames, and a frame compiled at another tier has
 * another size, so two JVMs of weft's future at 1,000,000 operations differ by a large part of
 * a frame), while within one JVM it hardly moves. So the interval is over JVMs, as quick JMH
 * runs fork twice (shootout/README.md has the figures). `MemoryShootoutSuite` re-checks the
 * scoring.
 */
object MemoryShootout:

  /**
   * The heap of every memory JVM (`-Xms` = `-Xmx`, ParallelGC), every contender and both
   * workloads alike. A million pending operations at up to ~1 KB each are ~1 GB of live
   * objects: in a 1 GiB heap (less ParallelGC's survivor space) weft's future fit in one JVM and
   * ran out of memory in another, where its frames were larger. 3 GiB leaves room for the
   * largest figure measured and the objects of the operations being started.
   */
  val Heap: String = "3g"

  /** JVMs per contender: more at 100,000 operations, where one JVM takes a few seconds. */
  def forks(mode: String, million: Boolean): Int = mode match
    case "smoke" => 1
    case "full"  => if million then 5 else 10
    case _       => if million then 3 else 4

  /** Entry point. */
  def main(args: Array[String]): Unit =
    val opts = args.sliding(2, 1).collect { case Array(k, v) if k.startsWith("--") => k -> v }.toMap
    val out =
      File(opts.getOrElse("--out", throw IllegalArgumentException("--out <file> is required")))
    val mode = opts.getOrElse("--mode", "quick")
    val smoke = mode == "smoke"
    val million = args.contains("--million")
    val (contenders, n) =
      if million then (Seq("weft-future", "virtual-thread"), if smoke then 20_000 else 1_000_000)
      else (PendingContenders.ids, if smoke then 10_000 else 100_000)
    val jvms = forks(mode, million)
    // The first JVM of each contender takes the class histogram; the others only measure.
    val results = contenders.map(c => c -> (1 to jvms).map(i => runOne(c, n, histogram = i == 1)))
    val rows = results.map((c, runs) =>
      row(if c == "weft-future" then "weft" else c, runs.map(_.flatMap(perOp)))
    )
    Files.writeString(out.toPath, rows.mkString("[", ",\n", "]\n"), StandardCharsets.UTF_8)
    val md = File(out.getParentFile, out.getName.stripSuffix(".json") + "-histograms.md")
    Files.writeString(md.toPath, histograms(results, n), StandardCharsets.UTF_8)

  /**
   * A contender's JSON object from its JVMs' bytes/op (None for a JVM that failed): the mean
   * and its 95% half-width; a null score when any JVM failed, since a contender that ran out
   * of memory in one JVM does not fit, whatever the others measured.
   */
  def row(name: String, perJvm: Seq[Option[Double]]): String =
    if perJvm.isEmpty || perJvm.exists(_.isEmpty) then
      s"""{"contender": "$name", "score": null, "error": null}"""
    else
      val (mean, error) = weft.bench.Stats.meanAndError(perJvm.flatten)
      s"""{"contender": "$name", "score": $mean, "error": ${error.fold("null")(_.toString)}}"""

  private def perOp(json: String): Option[Double] =
    """"bytesPerOp": ([0-9.]+)""".r.findFirstMatchIn(json).map(_.group(1).toDouble)

  /**
   * Runs one contender in a fresh JVM; its JSON line, or None if it failed. The JVM exits on
   * its first `OutOfMemoryError`: N operations that do not fit in the heap are a failure to
   * report, but without the flag the error killed one pending fiber, the harness waited for it
   * forever, and so did the shootout. The JVM's other output goes to this one's stderr (the
   * shootout's log of the harness), so that such an exit is seen there.
   */
  private def runOne(contender: String, n: Int, histogram: Boolean): Option[String] =
    val java = File(File(System.getProperty("java.home"), "bin"), "java").getPath
    val cmd = Seq(java) ++ unsafeFlag(java) ++ Seq(
      s"-Xms$Heap",
      s"-Xmx$Heap",
      "-XX:+ExitOnOutOfMemoryError",
      "-XX:+UseParallelGC",
      s"-D${MemoryHarness.HistogramProperty}=$histogram",
      "-cp",
      System.getProperty("java.class.path"),
      "weft.bench.memory.MemoryHarness",
      contender,
      n.toString
    )
    System.err.println(s"memory: $contender, N = $n, heap $Heap")
    val p = ProcessBuilder(cmd.asJava).redirectErrorStream(true).start()
    val lines = scala.io.Source.fromInputStream(p.getInputStream).getLines().toList
    val exit = p.waitFor()
    lines.filterNot(_.startsWith("{\"contender\"")).foreach(l => System.err.println(s"  $l"))
    val result =
      lines.reverse.find(_.startsWith("{\"contender\"")).filterNot(_.contains("\"failed\": true"))
    System.err.println(
      s"  exit $exit, ${result.flatMap(perOp).fold("no result")(b => s"$b bytes/op")}"
    )
    result

  /** The unsafe-memory-access flag if this JVM got it (the build decides: project/JvmFlags). */
  private def unsafeFlag(java: String): Seq[String] =
    val flag = "--sun-misc-unsafe-memory-access=allow"
    val passed = _root_.java.lang.management.ManagementFactory.getRuntimeMXBean.getInputArguments
    if passed.contains(flag) then Seq(flag) else Nil

  /** Every JVM's figure and the first JVM's top classes per contender, then the seed's histogram. */
  private def histograms(results: Seq[(String, Seq[Option[String]])], n: Int): String =
    val Row = """\{"class": "([^"]*)", "instances": (\d+), "bytes": (\d+)\}""".r
    val sb = StringBuilder()
    sb ++= s"## Live class histograms of $n pending operations (heap $Heap, after full GC)\n\n"
    for (c, runs) <- results do
      sb ++= s"### $c\n\n"
      val figures =
        runs.map(_.flatMap(perOp).fold("FAILED (out of memory or crashed)")(b => f"$b%.0f"))
      sb ++= s"Bytes per pending operation in each of its ${runs.size} JVMs: ${figures.mkString(", ")}.\n\n"
      runs.headOption.flatten match
        case None => sb ++= "No histogram: its first JVM failed.\n\n"
        case Some(json) =>
          sb ++= "Its first JVM's top classes:\n\n"
          sb ++= "| class | instances | bytes | bytes/op |\n|---|---:|---:|---:|\n"
          for m <- Row.findAllMatchIn(json) do
            val bytes = m.group(3).toLong
            sb ++= s"| `${m.group(1)}` | ${m.group(2)} | $bytes | ${bytes / n} |\n"
          sb ++= "\n"
    sb ++= SeedHistogram
    sb.result()

  /** Seed 003's `jmap -histo:live` figures (Java 8, Scala 2.11, Akka; other hardware). */
  private val SeedHistogram =
    """### Seed 003, published (other hardware, JDK 8): 100,000 pending operations
      |
      || contender | class | instances | bytes |
      ||---|---|---:|---:|
      || future | scala.concurrent.impl.Promise$DefaultPromise | 200001 | 3200016 |
      || future | scala.collection.immutable.$colon$colon | 100010 | 2400240 |
      || future | scala.concurrent.impl.CallbackRunnable | 100003 | 2400072 |
      || future | ExecutionContextImpl$AdaptedForkJoinTask | 100001 | 2400024 |
      || future | Future$$anonfun$flatMap$1 | 100000 | 2400000 |
      || tell | java.util.concurrent.ConcurrentLinkedQueue$Node | 100007 | 2400168 |
      || tell | akka.dispatch.Envelope | 100000 | 2400000 |
      |
      |The seed's lists hold only the classes with ~100,000 instances (about 192 bytes/op for
      |futures, 48 for tell): its blocked platform threads (10) and queued tasks are counted there,
      |while here every pending weft future or virtual thread also owns a parked stack.
      |""".stripMargin
