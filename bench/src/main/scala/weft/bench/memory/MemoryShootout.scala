package weft.bench.memory

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import scala.jdk.CollectionConverters.*

/**
 * The shootout's external runner for the memory workloads: forks one fresh JVM per contender
 * ([[MemoryHarness]]), and writes the shootout's JSON (`[{"contender", "score", "error"}]`, score
 * in bytes/op) plus a Markdown file of the class histograms beside it.
 *
 * Usage: `MemoryShootout --out <file.json> --mode <quick|full|smoke> [--million]`. Without
 * `--million` it measures every contender at N = 100,000 (10,000 in smoke mode) with a 2 GiB
 * heap; with it, weft and the bare virtual thread at N = 1,000,000 with a 1 GiB heap (a failure
 * there means it did not fit).
 */
object MemoryShootout:

  /** Entry point. */
  def main(args: Array[String]): Unit =
    val opts = args.sliding(2, 1).collect { case Array(k, v) if k.startsWith("--") => k -> v }.toMap
    val out =
      File(opts.getOrElse("--out", throw IllegalArgumentException("--out <file> is required")))
    val smoke = opts.get("--mode").contains("smoke")
    val million = args.contains("--million")
    val (contenders, n, heap) =
      if million then
        (Seq("weft-future", "virtual-thread"), if smoke then 20_000 else 1_000_000, "1g")
      else (PendingContenders.ids, if smoke then 10_000 else 100_000, "2g")
    val results = contenders.map(c => c -> runOne(c, n, heap))
    val rows = results.map: (c, r) =>
      val name = if c == "weft-future" then "weft" else c
      r.flatMap(perOp) match
        case Some(b) => s"""{"contender": "$name", "score": $b, "error": null}"""
        case None    => s"""{"contender": "$name", "score": null, "error": null}"""
    Files.writeString(out.toPath, rows.mkString("[", ",\n", "]\n"), StandardCharsets.UTF_8)
    val md = File(out.getParentFile, out.getName.stripSuffix(".json") + "-histograms.md")
    Files.writeString(md.toPath, histograms(results, n, heap), StandardCharsets.UTF_8)

  private def perOp(json: String): Option[Double] =
    """"bytesPerOp": ([0-9.]+)""".r.findFirstMatchIn(json).map(_.group(1).toDouble)

  /**
   * Runs one contender in a fresh JVM; its JSON line, or None if it failed. The JVM exits on
   * its first `OutOfMemoryError`: N operations that do not fit in the heap are a failure to
   * report, but without the flag the error killed one pending fiber, the harness waited for it
   * forever, and so did the shootout (seen with 1,000,000 weft futures in 1 GiB, in a run where
   * their stack frames were still interpreted and larger).
   */
  private def runOne(contender: String, n: Int, heap: String): Option[String] =
    val java = File(File(System.getProperty("java.home"), "bin"), "java").getPath
    val cmd = Seq(java) ++ unsafeFlag(java) ++ Seq(
      s"-Xms$heap",
      s"-Xmx$heap",
      "-XX:+ExitOnOutOfMemoryError",
      "-XX:+UseParallelGC",
      "-cp",
      System.getProperty("java.class.path"),
      "weft.bench.memory.MemoryHarness",
      contender,
      n.toString
    )
    System.err.println(s"memory: $contender, N = $n, heap $heap")
    val p = ProcessBuilder(cmd.asJava).redirectErrorStream(true).start()
    val lines = scala.io.Source.fromInputStream(p.getInputStream).getLines().toList
    p.waitFor()
    lines.reverse.find(_.startsWith("{\"contender\"")).filterNot(_.contains("\"failed\": true"))

  /** The unsafe-memory-access flag if this JVM got it (the build decides: project/JvmFlags). */
  private def unsafeFlag(java: String): Seq[String] =
    val flag = "--sun-misc-unsafe-memory-access=allow"
    val passed = _root_.java.lang.management.ManagementFactory.getRuntimeMXBean.getInputArguments
    if passed.contains(flag) then Seq(flag) else Nil

  /** The top classes per contender, and the seed's own histogram for reference. */
  private def histograms(results: Seq[(String, Option[String])], n: Int, heap: String): String =
    val Row = """\{"class": "([^"]*)", "instances": (\d+), "bytes": (\d+)\}""".r
    val sb = StringBuilder()
    sb ++= s"# Live class histograms of $n pending operations (heap $heap, after full GC)\n\n"
    for (c, r) <- results do
      sb ++= s"## $c\n\n"
      r match
        case None => sb ++= "FAILED (no result; out of memory or crashed)\n\n"
        case Some(json) =>
          sb ++= s"${perOp(json).fold("?")(b => f"$b%.0f")} bytes per pending operation.\n\n"
          sb ++= "| class | instances | bytes | bytes/op |\n|---|---:|---:|---:|\n"
          for m <- Row.findAllMatchIn(json) do
            val bytes = m.group(3).toLong
            sb ++= s"| `${m.group(1)}` | ${m.group(2)} | $bytes | ${bytes / n} |\n"
          sb ++= "\n"
    sb ++= SeedHistogram
    sb.result()

  /** Seed 003's `jmap -histo:live` figures (Java 8, Scala 2.11, Akka; other hardware). */
  private val SeedHistogram =
    """## Seed 003, published (other hardware, JDK 8): 100,000 pending operations
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
