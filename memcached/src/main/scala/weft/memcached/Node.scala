package weft.memcached

import java.util.concurrent.ThreadLocalRandom
import scala.concurrent.duration.FiniteDuration
import weft.{Async, Future, Promise, Timer, await, sleep}

/**
 * One server: its current [[Connection]], and the supervisor fiber that keeps one open.
 *
 * ==Algorithm==
 * The supervisor connects, publishes the connection, then watches it: every quarter of the
 * liveness timeout it checks how long the oldest in-flight request has waited with no byte
 * arriving, and closes the connection past the limit (its calls fail with [[ConnectionLost]]).
 * Progress is the measure, not a count of timeouts, so a slow but live server is never cut off
 * and a silent one is noticed within about 1.25 times the limit. When the connection closes,
 * for whatever reason, the supervisor joins its fibers (so the socket is closed and nothing of
 * it runs on) and connects again after a delay: exponential from `reconnectBase` up to
 * `reconnectMax`, each drawn between half and all of its value (jitter), reset once a
 * connection has answered something. One supervisor per node means one attempt at a time.
 * `ReconnectSuite` and `FailureSuite` check it against a killed, stopped and restarted server.
 */
final private[memcached] class Node(
    name: String,
    host: String,
    port: Int,
    config: MemcachedConfig
):
  /** The counters shown by the client. */
  val counters = NodeCounters(name)

  @volatile private var current: Connection | Null = null
  @volatile private var stopped = false
  private val firstAttempt = Promise[Unit]()

  /** Whether the node has an open connection. */
  def isUp: Boolean =
    val c = current
    c != null && !c.isClosed

  /**
   * Queues `req` on the current connection.
   * @throws Unavailable
   *   if there is none
   */
  def submit(req: Request[?]): Unit =
    val c = current
    if stopped then throw ClientClosed(s"${counters.node}: the client is closed")
    if c == null || c.isClosed then
      throw Unavailable(s"${counters.node}: not connected (${counters.state})")
    try c.submit(req)
    catch
      case e: ConnectionLost =>
        throw Unavailable(s"${counters.node}: not connected (${e.getMessage})")

  /** Waits for the outcome of the first connection attempt (success or not). */
  def awaitFirstAttempt()(using Async): Unit = firstAttempt.future.result

  /** Stops the supervisor's work: the current connection fails its calls with `why`. */
  def stop(why: MemcachedException): Unit =
    stopped = true
    counters.state = NodeState.Closed
    val c = current
    if c != null then c.close(why)

  /** The supervisor loop; runs until the client's scope cancels it. */
  def supervise()(using Async): Unit =
    var failures = 0
    try
      while !stopped do
        val c =
          try Connection.open(host, port, config, counters)
          catch case _: java.io.IOException => null
        if c != null then
          current = c
          if stopped then c.close(ClientClosed(s"${counters.node}: the client is closed"))
          else counters.state = NodeState.Up
        else if !stopped then counters.state = NodeState.Down
        // completed only once the connection (or the node's Down state) is published, so a
        // call made right after `MemcachedClient.open` returns finds it (ResourceSuite's
        // regression test)
        firstAttempt.tryComplete(scala.util.Success(()))
        if c != null then
          watch(c)
          c.join()
          current = null
          if !stopped then
            counters.state = NodeState.Down
            counters.reconnects.incrementAndGet()
          failures = if c.repliesRead > 0 then 1 else failures + 1
        else failures += 1
        if !stopped then sleep(backoff(failures))
    finally
      // the supervisor ends only with the client: by close, or by the end of the scope that
      // opened it; either way later calls fail with ClientClosed, not a retriable Unavailable
      // (ResourceSuite's regression test)
      stopped = true
      counters.state = NodeState.Closed
      firstAttempt.tryComplete(scala.util.Success(()))
      val c = current
      if c != null then c.close(ClientClosed(s"${counters.node}: the client is closed"))

  /** Waits until `c` closes, closing it when it stops making progress. */
  private def watch(c: Connection)(using Async): Unit =
    val limit = config.livenessTimeout.toNanos
    val every = FiniteDuration(math.max(1L, limit / 4), "ns")
    while !c.isClosed do
      val t = Timer(every)
      try Async.await(Async.either(c.closed, t))
      finally t.cancel()
      val stalled = c.stalledNanos(Clocks.now())
      if stalled > limit then
        c.close(
          ConnectionLost(
            s"${counters.node}: no reply for ${stalled / 1_000_000} ms (liveness limit " +
              s"${config.livenessTimeout})"
          )
        )

  /** The delay before attempt number `failures` (>= 1): exponential, capped, jittered. */
  private def backoff(failures: Int): FiniteDuration =
    val full =
      Node.backoffNanos(config.reconnectBase.toNanos, config.reconnectMax.toNanos, failures)
    val jittered = full / 2 + ThreadLocalRandom.current().nextLong(full / 2 + 1)
    FiniteDuration(jittered, "ns")

/** The reconnection schedule. */
private[memcached] object Node:

  /**
   * `base * 2^(failures - 1)` nanoseconds, at most `max`. Saturating: shifting a large base
   * (a reconnectBase of hours) wrapped to a negative delay, which is no delay at all, a
   * reconnection storm (ValidateSuite's regression test).
   */
  def backoffNanos(base: Long, max: Long, failures: Int): Long =
    val shift = (failures - 1).max(0)
    if shift >= 62 || base > (max >> shift) then max else base << shift
