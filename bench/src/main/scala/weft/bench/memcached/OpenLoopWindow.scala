package weft.bench.memcached

import java.util.concurrent.{ConcurrentLinkedQueue, Semaphore, TimeUnit}
import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.locks.LockSupport

/**
 * One window of the open-loop harness: `count` gets of random keys at `rate` per second, sent
 * by the calling thread at fixed intended times, latency from each request's due time to its
 * reply (see [[OpenLoopRun]]). `send(key, due)` sends one request and returns at once; the
 * request reports back through [[completed]] or [[failed]] (a wrong value goes to `errors`,
 * which fails the contender).
 */
final class OpenLoopWindow(val rate: Int, val count: Long, seed: Long):
  /** Latencies of this window's requests, in ns from their due times. */
  val histogram: LatencyHistogram = LatencyHistogram()
  private val inWindowCount = AtomicLong()
  private val doneCount = AtomicLong()
  private val failedCount = AtomicLong()
  private var sentCount = 0L
  private var abandonedFlag = false
  private var drainedFlag = false
  @volatile private var end = Long.MaxValue

  /** Requests sent. */
  def sent: Long = sentCount

  /** Requests answered before the window's end. */
  def inWindow: Long = inWindowCount.get

  /** Calls the client failed (not a wrong value: that fails the contender). */
  def failedCalls: Long = failedCount.get

  /** Whether the window met [[OpenLoopStats.windowCompleted]]. */
  def completed: Boolean =
    OpenLoopStats.windowCompleted(abandonedFlag, drainedFlag, failedCalls, inWindow, count)

  /** Records the reply of a request due at `due`. */
  def completed(due: Long): Unit =
    val t = System.nanoTime()
    histogram.record(t - due)
    if t <= end then inWindowCount.incrementAndGet()
    doneCount.incrementAndGet()

  /** Records a call the client failed. */
  def failed(): Unit =
    failedCount.incrementAndGet()
    doneCount.incrementAndGet()

  /**
   * Sends the window through `send`, then waits for every reply: up to 1 s after the window's
   * end for it to count as drained, then up to 60 s more before a request never answered is
   * an error.
   */
  def run(send: (String, Long) => Unit, errors: ConcurrentLinkedQueue[Throwable]): Unit =
    val rnd = java.util.SplittableRandom(seed)
    val interval = 1e9 / rate
    val maxBacklog = math.max(100L, (rate * OpenLoopRun.BacklogSeconds).toLong)
    val start = System.nanoTime() + 1_000_000L
    end = start + (count * interval).toLong
    while sentCount < count && !abandonedFlag do
      val due = start + (sentCount * interval).toLong
      val now = System.nanoTime()
      if due > now then LockSupport.parkNanos(due - now)
      send(OpenLoopWindow.key(rnd), due)
      sentCount += 1
      if sentCount - doneCount.get > maxBacklog then abandonedFlag = true
    val drainLimit = math.max(System.nanoTime(), end) + 1_000_000_000L
    while doneCount.get < sentCount && System.nanoTime() < drainLimit do Thread.sleep(1)
    drainedFlag = doneCount.get == sentCount
    val hardLimit = System.nanoTime() + 60_000_000_000L
    while doneCount.get < sentCount && System.nanoTime() < hardLimit do Thread.sleep(5)
    if doneCount.get < sentCount then
      errors.add(
        IllegalStateException(s"${sentCount - doneCount.get} gets never completed in 60 s")
      )

/** The two ways of sending, and warming up. */
object OpenLoopWindow:

  /** A random key of the stored ones. */
  def key(rnd: java.util.SplittableRandom): String = s"key${rnd.nextInt(OpenLoopRun.Keys)}"

  /** Sends each request on its own virtual thread calling the client's blocking get. */
  def blocking(
      c: McContender,
      w: OpenLoopWindow,
      errors: ConcurrentLinkedQueue[Throwable]
  ): (String, Long) => Unit = (k, due) =>
    Thread.ofVirtual().start: () =>
      try
        McContender.check(k, McContender.valueOf(k), c.get(k))
        w.completed(due)
      catch
        case e: WrongValue => errors.add(e); w.failed()
        case _: Throwable  => w.failed()
    ()

  /** Sends each request through the client's asynchronous get, from the sending thread. */
  def async(
      get: McContender.AsyncGet,
      w: OpenLoopWindow,
      errors: ConcurrentLinkedQueue[Throwable]
  ): (String, Long) => Unit = (k, due) =>
    // a client that refuses at the call (overloaded, closed) fails that call, as a callback
    // with a failure does
    try
      get(
        k,
        (v, t) =>
          if t != null then w.failed()
          else
            try
              McContender.check(k, McContender.valueOf(k), v)
              w.completed(due)
            catch
              case e: Throwable => errors.add(e); w.failed()
      )
    catch case _: Exception => w.failed()

  /** 16 virtual threads getting in a closed loop for `seconds`; returns the gets sent. */
  def warmUpBlocking(
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
            val k = key(rnd)
            McContender.check(k, McContender.valueOf(k), c.get(k))
        catch case e: Throwable => errors.add(e)
    threads.foreach(_.join())
    sent.get

  /**
   * A closed loop of up to 16 outstanding asynchronous gets for `seconds`, so the asynchronous
   * path is compiled before it is measured; returns the gets sent.
   */
  def warmUpAsync(
      get: McContender.AsyncGet,
      seconds: Double,
      errors: ConcurrentLinkedQueue[Throwable]
  ): Long =
    val outstanding = 16
    val permits = Semaphore(outstanding)
    val end = System.nanoTime() + (seconds * 1e9).toLong
    val rnd = java.util.SplittableRandom(7L)
    var sent = 0L
    while System.nanoTime() < end && errors.isEmpty do
      if permits.tryAcquire(1, TimeUnit.SECONDS) then
        val k = key(rnd)
        sent += 1
        get(
          k,
          (v, t) =>
            try
              if t != null then errors.add(t)
              else McContender.check(k, McContender.valueOf(k), v)
            catch case e: Throwable => errors.add(e)
            finally permits.release()
        )
    if !permits.tryAcquire(outstanding, 60, TimeUnit.SECONDS) then
      errors.add(IllegalStateException("warm-up gets never completed in 60 s"))
    sent
