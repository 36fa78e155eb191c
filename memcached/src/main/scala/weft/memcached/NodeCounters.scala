package weft.memcached

import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}

/** The state of a node's connection. */
enum NodeState:
  /** Before the first connection attempt finished. */
  case Connecting

  /** Connected: calls are sent. */
  case Up

  /** No connection: calls fail (or go elsewhere), a reconnect is pending. */
  case Down

  /** The client is closed. */
  case Closed

/**
 * A snapshot of one node's counters.
 *
 * @param node
 *   the node's address as configured
 * @param inFlight
 *   requests written and not yet answered (including abandoned ones whose reply is awaited)
 * @param queued
 *   requests waiting for the writer
 * @param timeouts
 *   calls that failed with [[Timeout]]
 * @param lateReplies
 *   replies read for calls that had already given up (timed out or cancelled), discarded
 * @param desyncs
 *   connections closed because the reply stream made no sense
 * @param reconnects
 *   connections lost (each followed by reconnection attempts)
 * @param state
 *   the connection's state now
 */
final case class NodeStats(
    node: String,
    inFlight: Int,
    queued: Int,
    timeouts: Long,
    lateReplies: Long,
    desyncs: Long,
    reconnects: Long,
    state: NodeState
):
  override def toString: String =
    s"$node: $state, in flight $inFlight, queued $queued, timeouts $timeouts, " +
      s"late replies $lateReplies, desyncs $desyncs, reconnects $reconnects"

/** The live counters of a node, updated by its connections and callers. */
final private[memcached] class NodeCounters(val node: String):
  val inFlight = AtomicInteger()
  val queued = AtomicInteger()
  val timeouts = AtomicLong()
  val lateReplies = AtomicLong()
  val desyncs = AtomicLong()
  val reconnects = AtomicLong()
  @volatile var state: NodeState = NodeState.Connecting

  /** A consistent-enough copy (each counter read once). */
  def snapshot: NodeStats =
    NodeStats(
      node,
      inFlight.get,
      queued.get,
      timeouts.get,
      lateReplies.get,
      desyncs.get,
      reconnects.get,
      state
    )
