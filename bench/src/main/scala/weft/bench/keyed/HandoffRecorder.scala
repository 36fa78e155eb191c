package weft.bench.keyed

import java.lang.management.ManagementFactory

/**
 * The measuring side of [[HandoffLatency]]: runs the rounds, keeps the timestamps of every task
 * and turns each block of rounds into the metrics.
 */
object HandoffRecorder:

  private val os = ManagementFactory.getOperatingSystemMXBean
    .asInstanceOf[com.sun.management.OperatingSystemMXBean]

  /** A growable array of longs (no boxing while measuring). */
  final class Longs:
    private var a = new Array[Long](1 << 16)
    private var n = 0

    /** Appends `v`. */
    def add(v: Long): Unit =
      if n == a.length then a = java.util.Arrays.copyOf(a, n * 2)
      a(n) = v
      n += 1

    /** The `q` quantile (0..1) in microseconds, nearest rank; NaN when empty. */
    def quantileMicros(q: Double): Double =
      if n == 0 then Double.NaN
      else
        val sorted = java.util.Arrays.copyOf(a, n)
        java.util.Arrays.sort(sorted)
        sorted(math.min(n - 1, math.ceil(q * n).toInt - 1).max(0)) / 1000.0

  /**
   * Runs `c` for the warm-up then `blocks` blocks of `seconds` each; returns one JSON line,
   * `{"blocks": [{"first-p50": x, ...}, ...]}`.
   */
  def run(c: HandoffContender, plan: (Double, Int, Double), keys: Array[Int]): String =
    val (warmup, blocks, seconds) = plan
    val n = keys.length
    val submitNs, startNs, endNs = new Array[Long](n)
    // For the gaps: the previous task of the same key, by index (keys repeat within a batch).
    val previous = Array.fill(n)(-1)
    val last = scala.collection.mutable.Map.empty[Int, Int]
    for i <- 0 until n do
      previous(i) = last.getOrElse(keys(i), -1)
      last(keys(i)) = i
    val results = Seq.newBuilder[Map[String, Double]]
    var first, gaps = Longs()
    var block = -1 // -1: warm-up
    var blockEnd = System.nanoTime() + (warmup * 1e9).toLong
    var rounds = 0L
    var cpu0 = os.getProcessCpuTime
    var t0 = System.nanoTime()
    def finishBlock(now: Long): Unit =
      val cpu = os.getProcessCpuTime
      if block >= 0 then
        results += Map(
          "first-p50" -> first.quantileMicros(0.5),
          "first-p99" -> first.quantileMicros(0.99),
          "gap-p50" -> gaps.quantileMicros(0.5),
          "gap-p99" -> gaps.quantileMicros(0.99),
          "throughput" -> rounds / ((now - t0) / 1e9),
          "cpu" -> (cpu - cpu0) / 1000.0 / math.max(1, rounds)
        )
      first = Longs()
      gaps = Longs()
      rounds = 0
      block += 1
      cpu0 = cpu
      t0 = System.nanoTime()
      blockEnd = t0 + (seconds * 1e9).toLong
    c.measure { b =>
      b.batch(
        keys,
        i => submitNs(i) = System.nanoTime(),
        i =>
          startNs(i) = System.nanoTime()
          endNs(i) = System.nanoTime()
      )
      rounds += 1
      if block >= 0 then
        var i = 0
        while i < n do
          val p = previous(i)
          if p < 0 then first.add(startNs(i) - submitNs(i)) else gaps.add(startNs(i) - endNs(p))
          i += 1
      val now = System.nanoTime()
      if now >= blockEnd then finishBlock(now)
      block < blocks
    }
    results.result().map(m =>
      HandoffLatency.Metrics.map(k => s""""$k": ${m(k)}""").mkString("{", ", ", "}")
    ).mkString("""{"blocks": [""", ", ", "]}")

  /** The blocks of a [[run]] line. */
  def parse(line: String): Seq[Map[String, Double]] =
    val Block = """\{([^{}]*)\}""".r
    val Pair = """"([a-z0-9-]+)": ([-0-9.E]+|NaN)""".r
    Block.findAllMatchIn(line.stripPrefix("{\"blocks\": [")).map(m =>
      Pair.findAllMatchIn(m.group(1)).map(p => p.group(1) -> p.group(2).toDouble).toMap
    ).toSeq
