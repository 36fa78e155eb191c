package weft.memcached

import scala.concurrent.duration.FiniteDuration

/**
 * The connection's deadline sweep: every tick it fails with [[Timeout]] each request whose
 * swept deadline (the client's default: see [[Request.sweptDue]]) has passed, looking in flight,
 * then at the request the writer holds, then in the queue.
 *
 * ==Why a sweep==
 * A timer per request (the scheduler's heap, behind one lock) cost the client more than
 * encoding the request; the `memcached-setget` profile in docs/perf/memcached.md shows it.
 *
 * ==Algorithm==
 * Requests with the same deadline are due in the order they were queued, up to the time a call
 * spends between taking its due time and queueing, so each queue is walked from its head and
 * the walk stops at the first pending request due more than one tick after `now`: what follows
 * is due later still. A request queued out of due order by more than a tick expires at a later
 * sweep, no later than the ones ahead of it. Calls with another deadline keep a timer of their
 * own. `PipelinedSuite` (each place a request waits) and `MemcachedVirtualTimeSuite` (within a
 * tick of the deadline) re-check it.
 */
private[memcached] object DeadlineSweep:

  /** One sweep of a connection's requests at `now`, every `tick` nanoseconds. */
  def run(
      inFlight: java.util.Queue[Request[?]],
      holding: Request[?] | Null,
      queue: java.util.Queue[Request[?]],
      now: Long,
      tick: Long,
      counters: NodeCounters,
      deadline: FiniteDuration
  ): Unit =
    def expireIfDue(r: Request[?]): Boolean =
      val due = r.sweptDue
      if due == 0L || r.isDone then true
      else if due - now <= 0 then
        val _ = r.expire(counters, deadline)
        true
      else due - now <= tick
    def sweep(it: java.util.Iterator[Request[?]]): Boolean =
      var going = true
      while going && it.hasNext do going = expireIfDue(it.next())
      going
    if sweep(inFlight.iterator()) && (holding == null || expireIfDue(holding)) then
      val _ = sweep(queue.iterator())
