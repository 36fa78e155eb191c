package weft.bench.memcached

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.locks.LockSupport

/**
 * One contender of the open-loop latency harness, in its own JVM (started by [[OpenLoop]]):
 * a fresh [[BenchServer]], `key0` to `key999` stored, a closed-loop warm-up, then a ladder of
 * offered loads, each a window of gets sent at fixed intended times.
 *
 * ==Open loop==
 * Request `i` of a window is due at `start + i / rate`. One platform thread sends: it parks
 * until the next due time and starts every request already due, each on its own virtual
 * thread calling the client's blocking get (the same for every client; xmemcached has no
 * other API). A request's latency runs from its '''due''' time to its reply, so a sender that
 * falls behind, or a client that holds requests back, shows in the latency instead of lowering
 * the load (no coordinated omission, which JMH's closed-loop sample mode has).
 *
 * A load is '''sustained''' when at least 95% of its window's requests completed by the
 * window's end, all of them within 1 s after the window's end, and none failed. A call the
 * client fails (folsom refuses past 1000 outstanding, its default) makes the load not
 * sustained; a wrong value fails the contender. Past
 * [[OpenLoopRun.BacklogSeconds]] of backlog the window is abandoned (not sustained) and the
 * ladder stops for this contender. Every get checks its value, and at the end the server's
 * `cmd_get` and `get_hits` deltas must equal the gets sent, or the contender FAILS.
 *
 * Usage: `OpenLoopRun <contender> <rate,rate,...> <window seconds> <warm-up seconds>`; prints
 * `RATE`, `CURVE` and `DONE` or `FAILED` lines (see [[OpenLoop]]).
 */
object OpenLoopRun:

  /** Keys stored before measuring; each request reads a random one. */
  val Keys: Int = 1000

  /** A window with more than this many seconds' worth of requests outstanding is abandoned. */
  val BacklogSeconds: Double = 0.5

  /** Percentiles of each window's curve (100 = the maximum). */
  val CurvePercentiles: Seq[Double] = Seq(50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100)

  private final class Window(val rate: Int, val count: Long):
    val histogram = LatencyHistogram()
    val inWindow = AtomicLong()
    val done = AtomicLong()
    var sent = 0L
    val failedCalls = AtomicLong()
    var abandoned = false
    var drained = false
    var cpuNanos = 0L

  /** Entry point. */
  def main(args: Array[String]): Unit =
    val Array(name, ratesText, windowText, warmText) = args
    val rates = ratesText.split(',').map(_.toInt).toSeq
    val server = BenchServer.start()
    var sentTotal = 0L
    try
      val c = McContender.open(name, server.address)
      try
        (0 until Keys).foreach(i => c.set(s"key$i", McContender.valueOf(s"key$i")))
        val before = server.stats()
        val errors = ConcurrentLinkedQueue[Throwable]()
        sentTotal += warmUp(c, warmText.toDouble, errors)
        var go = errors.isEmpty
        var failedCalls = 0L
        for rate <- rates if go do
          val w = window(c, server, rate, windowText.toDouble, errors)
          sentTotal += w.sent
          failedCalls += w.failedCalls.get
          val sustained = !w.abandoned && w.drained && errors.isEmpty &&
            w.failedCalls.get == 0 && w.inWindow.get >= 0.95 * w.count
          val h = w.histogram
          def us(p: Double) = h.percentile(p) / 1e3
          println(
            s"RATE $name $rate ${if sustained then 1 else 0} ${w.sent} ${w.inWindow.get} " +
              s"${us(50)} ${us(99)} ${us(99.9)} ${h.max / 1e3} ${w.cpuNanos}"
          )
          println(
            s"CURVE $name $rate " + CurvePercentiles.map(p => s"$p:${us(p)}").mkString(",")
          )
          go = sustained
        if !errors.isEmpty then throw IllegalStateException("a get failed", errors.peek())
        val after = server.stats()
        def delta(s: String) = after.getOrElse(s, 0L) - before.getOrElse(s, 0L)
        // A call the client failed (overloaded, timed out) may or may not have reached the
        // server; every other get must have.
        val wrong = Seq("cmd_get", "get_hits").filter(s =>
          delta(s) > sentTotal || delta(s) < sentTotal - failedCalls
        )
        if wrong.nonEmpty then
          throw IllegalStateException(
            s"skipped work: $sentTotal gets sent ($failedCalls failed), the server counted " +
              wrong.map(s => s"$s ${delta(s)}").mkString(", ")
          )
        println(
          s"DONE $name $sentTotal gets sent, ${sentTotal - failedCalls} verified; server stats " +
            "deltas match"
        )
      finally c.close()
    catch
      case t: Throwable =>
        println(s"FAILED $name ${String.valueOf(t).replace('\n', ' ')}")
        t.printStackTrace()
    finally server.stop()
    sys.exit(0)

  private def key(rnd: java.util.SplittableRandom): String = s"key${rnd.nextInt(Keys)}"

  private def getChecked(c: McContender, k: String): Unit =
    McContender.check(k, McContender.valueOf(k), c.get(k))

  /** 16 virtual threads getting in a closed loop for `seconds`; returns the gets sent. */
  private def warmUp(
      c: McContender,
      seconds: Double,
      errors: ConcurrentLinkedQueue[Throwable]
  ): Long =
    val end = System.nanoTime() + (seconds * 1e9).toLong
    val sent = AtomicLong()
    val threads = (0 until 16).map: t =>
      Thread.ofVirtual().start: () =>
        val rnd = java.util.SplittableRandom(t.toLong)
        try
          while System.nanoTime() < end do
            sent.incrementAndGet()
            getChecked(c, key(rnd))
        catch case e: Throwable => errors.add(e)
    threads.foreach(_.join())
    sent.get

  /** One window at `rate` requests per second for `seconds`. */
  private def window(
      c: McContender,
      server: BenchServer,
      rate: Int,
      seconds: Double,
      errors: ConcurrentLinkedQueue[Throwable]
  ): Window =
    val w = Window(rate, math.max(1L, (rate * seconds).toLong))
    val rnd = java.util.SplittableRandom(rate.toLong)
    val interval = 1e9 / rate
    val maxBacklog = math.max(100L, (rate * BacklogSeconds).toLong)
    val cpuBefore = server.cpuNanos()
    val start = System.nanoTime() + 1_000_000L
    val end = start + (w.count * interval).toLong
    while w.sent < w.count && !w.abandoned do
      val due = start + (w.sent * interval).toLong
      val now = System.nanoTime()
      if due > now then LockSupport.parkNanos(due - now)
      val k = key(rnd)
      Thread.ofVirtual().start: () =>
        try
          getChecked(c, k)
          val t = System.nanoTime()
          w.histogram.record(t - due)
          if t <= end then w.inWindow.incrementAndGet()
        catch
          case e: WrongValue => errors.add(e)
          case _: Throwable  => w.failedCalls.incrementAndGet()
        finally w.done.incrementAndGet()
      w.sent += 1
      if w.sent - w.done.get > maxBacklog then w.abandoned = true
    // Every request sent must complete (a request never answered fails the contender).
    val drainLimit = math.max(System.nanoTime(), end) + 1_000_000_000L
    while w.done.get < w.sent && System.nanoTime() < drainLimit do Thread.sleep(1)
    w.drained = w.done.get == w.sent
    val hardLimit = System.nanoTime() + 60_000_000_000L
    while w.done.get < w.sent && System.nanoTime() < hardLimit do Thread.sleep(5)
    if w.done.get < w.sent then
      errors.add(IllegalStateException(s"${w.sent - w.done.get} gets never completed in 60 s"))
    w.cpuNanos = if cpuBefore < 0 then -1L else server.cpuNanos() - cpuBefore
    w
