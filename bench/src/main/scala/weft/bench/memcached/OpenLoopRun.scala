package weft.bench.memcached

import java.util.concurrent.ConcurrentLinkedQueue

/**
 * One contender of the open-loop latency harness, in its own JVM (started by [[OpenLoop]]):
 * a ladder of offered loads, several independent blocks per load.
 *
 * ==Blocks==
 * A block is a fresh [[BenchServer]] with `key0` to `key999` stored, a freshly opened client,
 * a short closed-loop warm-up of that client, then one window of gets at the load, and the
 * client and server closed again. Restarting both makes the blocks independent in what could
 * tie consecutive windows together (a connection's buffers and queues, the client's internal
 * state, the server's memory), while the JVM, and so the JIT's work, is shared: separate JVMs
 * per block would add a JVM start and a full warm-up to every block (seconds each, beyond the
 * quick run's budget), and what they would add to the spread (a JVM settling differently) is
 * what a steady client should not show. The first block of the JVM warms up longer.
 *
 * ==Open loop==
 * Request `i` of a window is due at `start + i / rate`. One platform thread sends: it parks
 * until the next due time and sends every request already due. A blocking row starts each
 * request on its own virtual thread calling the client's blocking get (weft: `Async.blocking`
 * per get); an asynchronous row (`<peer>Async`, `weftPipelined`) calls the client's
 * asynchronous get from the sending thread and records the reply in the client's callback
 * ([[McContender.asyncGets]]). A request's latency runs from its '''due''' time to its reply,
 * so a sender that falls behind, or a client that holds requests back, shows in the latency
 * instead of lowering the load (no coordinated omission).
 *
 * A window '''completed''' by [[OpenLoopStats.windowCompleted]]; a load is '''sustained''' by
 * [[OpenLoopStats.sustained]] (most blocks completed, their median p99 under the ceiling), and
 * the ladder
 * stops at the first load that is not. Past [[BacklogSeconds]] of backlog a window is abandoned
 * (not completed). Every get checks its value, and each block's server `cmd_get` and
 * `get_hits` deltas must lie between the gets sent less those the client failed and the gets
 * sent, or the contender FAILS.
 *
 * Usage: `OpenLoopRun <contender> <rate:gets,rate:gets,...> <blocks> <first warm-up s>
 * <block warm-up s>`; prints `BLOCK`, `CURVE` and `DONE` or `FAILED` lines (see [[OpenLoop]]).
 */
object OpenLoopRun:

  /** Keys stored before measuring; each request reads a random one. */
  val Keys: Int = 1000

  /** A window with more than this many seconds' worth of requests outstanding is abandoned. */
  val BacklogSeconds: Double = 0.5

  /** Percentiles of each load's curve (100 = the maximum). */
  val CurvePercentiles: Seq[Double] = Seq(50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100)

  /** Entry point. */
  def main(args: Array[String]): Unit =
    val Array(name, ladderText, blocksText, firstWarmText, blockWarmText) = args
    val ladder = ladderText.split(',').toSeq.map { rc =>
      val Array(r, c) = rc.split(':')
      (r.toInt, c.toLong)
    }
    val (base, async) = OpenLoop.spelling(name)
    var total = 0L
    try
      var go = true
      var first = true
      for (rate, count) <- ladder if go do
        val pooled = LatencyHistogram()
        val blocks = (0 until blocksText.toInt).map: i =>
          val warm = if first then firstWarmText.toDouble else blockWarmText.toDouble
          first = false
          val (b, w) = block(name, base, async, rate, count, i, warm)
          pooled.addAll(w.histogram)
          total += b.sent
          println(
            s"BLOCK $name $rate $i ${if b.completed then 1 else 0} ${b.sent} ${b.inWindow} " +
              s"${b.p50} ${b.p99} ${b.p999} ${b.max} ${b.cpuNanos}"
          )
          b
        def us(p: Double) = pooled.percentile(p) / 1e3
        println(s"CURVE $name $rate " + CurvePercentiles.map(p => s"$p:${us(p)}").mkString(","))
        go = OpenLoopStats.sustained(OpenLoopStats.Load(name, rate, blocks))
      println(s"DONE $name $total gets sent in windows; every block's server stats deltas match")
    catch
      case t: Throwable =>
        println(s"FAILED $name ${String.valueOf(t).replace('\n', ' ')}")
        t.printStackTrace()
    sys.exit(0)

  /** One block: a fresh server and client, a warm-up, one window; throws on a wrong result. */
  private def block(
      name: String,
      base: String,
      async: Boolean,
      rate: Int,
      count: Long,
      index: Int,
      warm: Double
  ): (OpenLoopBlock, OpenLoopWindow) =
    val server = BenchServer.start()
    try
      val c = McContender.open(base, server.address)
      try
        McContender.preload(c, Keys)
        val before = server.stats()
        val errors = ConcurrentLinkedQueue[Throwable]()
        val w = OpenLoopWindow(rate, count, rate.toLong * 1000 + index)
        var cpu = -1L
        def measure(send: (String, Long) => Unit): Unit =
          if errors.isEmpty then
            val cpuBefore = server.cpuNanos()
            w.run(send, errors)
            cpu = if cpuBefore < 0 then -1L else server.cpuNanos() - cpuBefore
        val warmed =
          if async then
            c.asyncGets: get =>
              val n = OpenLoopWindow.warmUpAsync(get, warm, errors)
              measure(OpenLoopWindow.async(get, w, errors))
              n
          else
            val n = OpenLoopWindow.warmUpBlocking(c, warm, errors)
            measure(OpenLoopWindow.blocking(c, w, errors))
            n
        if !errors.isEmpty then throw IllegalStateException("a get failed", errors.peek())
        val sent = warmed + w.sent
        val after = server.stats()
        def delta(s: String) = after.getOrElse(s, 0L) - before.getOrElse(s, 0L)
        // A call the client failed (overloaded, timed out) may or may not have reached the
        // server; every other get must have.
        val wrong = Seq("cmd_get", "get_hits").filter(s =>
          delta(s) > sent || delta(s) < sent - w.failedCalls
        )
        if wrong.nonEmpty then
          throw IllegalStateException(
            s"skipped work at $rate gets/s, block $index: $sent gets sent (${w.failedCalls} " +
              s"failed), the server counted " + wrong.map(s => s"$s ${delta(s)}").mkString(", ")
          )
        val h = w.histogram
        def us(p: Double) = h.percentile(p) / 1e3
        val b = OpenLoopBlock(
          name,
          rate,
          index,
          w.completed,
          w.sent,
          w.inWindow,
          us(50),
          us(99),
          us(99.9),
          h.max / 1e3,
          cpu
        )
        (b, w)
      finally c.close()
    finally server.stop()
