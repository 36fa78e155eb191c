package weft.bench.memory

import java.lang.management.ManagementFactory
import javax.management.ObjectName

/**
 * Measures the retained heap of N pending operations (seed 003), one contender per JVM.
 *
 * Usage: `MemoryHarness <contender-id> <n>`; prints one JSON object on the last line of stdout:
 * `{"contender": id, "n": n, "bytesPerOp": b, "baselineBytes": x, "pendingBytes": y,
 * "histogram": [{"class": c, "instances": i, "bytes": b}, ...]}` and exits.
 *
 * Method: the contender's runtime is started and warmed first; then a full GC gives the
 * baseline of used heap; then the contender starts N operations that stay pending (blocked,
 * not finished) and reports when all are pending; a second full GC gives the pending heap.
 * Bytes per operation = (pending - baseline) / N. The histogram is the live class histogram
 * (the JVM's `GC.class_histogram` diagnostic command, as `jmap -histo:live` in the seed),
 * the top classes by bytes (unless [[HistogramProperty]] turns it off).
 *
 * Run it with a fixed heap (`-Xms` = `-Xmx`) and the same GC for every contender; the shootout
 * does so.
 */
object MemoryHarness:

  /** Entry point: `<contender-id> <n>`. */
  def main(args: Array[String]): Unit =
    if args.length != 2 then
      System.err.println(s"usage: MemoryHarness <${PendingContenders.ids.mkString("|")}> <n>")
      System.exit(2)
    val id = args(0)
    val n = args(1).toInt
    val contender = PendingContenders.byId.getOrElse(
      id,
      throw IllegalArgumentException(
        s"unknown contender $id; known: ${PendingContenders.ids.mkString(", ")}"
      )
    )
    try contender.measure(n)
    catch
      case e: OutOfMemoryError =>
        emit(s"""{"contender": "$id", "n": $n, "failed": true, "error": "OutOfMemoryError"}""")

  /**
   * Prints the result line and halts the JVM: pending operations never finish, so nothing may
   * wait for them (no shutdown hooks, no scope joins).
   */
  def emit(json: String): Nothing =
    println(json)
    System.out.flush()
    Runtime.getRuntime.halt(0)
    throw IllegalStateException("halt returned")

  /**
   * The system property that turns the class histogram off (`-D...=false`): it costs one more
   * full GC, seconds with a million pending operations, and the shootout prints only one JVM's.
   */
  val HistogramProperty: String = "weft.bench.memory.histogram"

  /** Whether this JVM takes the class histogram (unless [[HistogramProperty]] is `false`). */
  def histogramWanted: Boolean = !sys.props.get(HistogramProperty).contains("false")

  /** Used heap after a full GC, in bytes. */
  def usedAfterGc(): Long =
    val rt = Runtime.getRuntime
    var last = Long.MaxValue
    var i = 0
    // Repeat until the figure settles: finalizable/soft objects may need more than one cycle.
    while i < 5 do
      System.gc()
      Thread.sleep(100)
      val used = rt.totalMemory() - rt.freeMemory()
      if math.abs(last - used) < 64 * 1024 then i = 5
      last = used
      i += 1
    last

  /** The top classes of the live histogram (forces a full GC), by bytes. */
  def histogram(top: Int): Seq[(String, Long, Long)] =
    val server = ManagementFactory.getPlatformMBeanServer
    val name = ObjectName("com.sun.management:type=DiagnosticCommand")
    val text = server
      .invoke(
        name,
        "gcClassHistogram",
        Array[AnyRef](Array.empty[String]),
        Array("[Ljava.lang.String;")
      )
      .asInstanceOf[String]
    val Row = """\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+).*""".r
    text.linesIterator
      .collect { case Row(instances, bytes, cls) => (cls, instances.toLong, bytes.toLong) }
      .toSeq
      .sortBy(-_._3)
      .take(top)

  /** Formats one measurement as the harness's JSON line. */
  def json(
      id: String,
      n: Int,
      baseline: Long,
      pending: Long,
      hist: Seq[(String, Long, Long)]
  ): String =
    val rows = hist
      .map((c, i, b) => s"""{"class": "${c.replace("\"", "")}", "instances": $i, "bytes": $b}""")
      .mkString("[", ", ", "]")
    val perOp = (pending - baseline).toDouble / n
    f"""{"contender": "$id", "n": $n, "bytesPerOp": $perOp%.1f, "baselineBytes": $baseline, "pendingBytes": $pending, "histogram": $rows}"""
