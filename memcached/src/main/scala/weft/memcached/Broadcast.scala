package weft.memcached

import java.util.concurrent.CancellationException
import scala.concurrent.duration.FiniteDuration
import scala.util.{Failure, Success, Try}
import weft.Async

/**
 * A request sent to every node (`flush_all`, `version`, `stats`). Each node is sent its own
 * request and given the call's deadline whatever the others do: one node down never keeps the
 * request from the others (`BroadcastSuite`'s regression test).
 */
private[memcached] object Broadcast:

  /**
   * Runs a request made by `mk` on every node: each is sent (a node that refuses it, down or
   * overloaded, fails only its own entry), then each awaited until `due`.
   * @throws ClientClosed
   *   if the client is closed
   */
  def run[T](client: MemcachedClient, nodes: IndexedSeq[Node], due: Long, deadline: FiniteDuration)(
      mk: () => Request[T]
  )(using Async): Map[String, Try[T]] =
    if client.isClosed then throw ClientClosed("the client is closed")
    val sent = nodes.map(n => (n, mk().send(client, n, due, deadline)))
    try
      Request.awaitEvery(sent.map(_._2))
      sent.map: (n, r) =>
        n.counters.node -> (
          try Success(r.awaitCall())
          catch case e: MemcachedException => Failure(e)
        )
      .toMap
    catch
      case c: CancellationException =>
        // the caller was cancelled: the requests not awaited yet are abandoned too
        sent.foreach((_, r) => r.cancel())
        throw c

  /** Every node's value, or the first node's failure (in `nodes` order), the others suppressed. */
  def orThrow[T](nodes: IndexedSeq[Node], byNode: Map[String, Try[T]]): Map[String, T] =
    val failures = nodes.flatMap(n => byNode.get(n.counters.node)).collect:
      case Failure(e) => e
    if failures.isEmpty then byNode.map((n, t) => n -> t.get)
    else
      failures.tail.foreach(e => if e ne failures.head then failures.head.addSuppressed(e))
      throw failures.head
