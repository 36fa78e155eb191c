package weft.memcached

import java.util.concurrent.CancellationException
import scala.concurrent.duration.FiniteDuration
import scala.util.Failure
import weft.{Async, await}
import weft.internal.runtime.DurationText

/**
 * One request's part of a call: submitted only while the call has time left, failed with
 * [[Timeout]] when its deadline passes, awaited by its caller, and abandoned (its reply then
 * discarded and counted late) when the caller is cancelled. Keyed calls run through [[run]];
 * [[MultiGet]] and [[Broadcast]] use the pieces for their several requests.
 */
private[memcached] object Calls:

  /**
   * Submits `req` to `node` and waits for it until `due`; a call already out of time is not
   * submitted at all.
   * @throws ClientClosed
   *   if `client` is closed
   */
  def run[T](
      client: MemcachedClient,
      node: Node,
      req: Request[T],
      due: Long,
      deadline: FiniteDuration
  )(
      using async: Async
  ): T =
    if client.isClosed then throw ClientClosed("the client is closed")
    val left = due - Clocks.now()
    if left <= 0 then throw lateBeforeSending(node, req, deadline)
    node.submit(req)
    val handle = armDeadline(node, req, left, deadline)
    try awaitRequest(req)
    finally handle.cancel()

  /** The [[Timeout]] of a request whose call ran out of time before it was sent (counted). */
  def lateBeforeSending(node: Node, req: Request[?], deadline: FiniteDuration): Timeout =
    node.counters.timeouts.incrementAndGet()
    Timeout(
      s"${node.counters.node}: $req not sent, the call's deadline (${DurationText(deadline)}) passed first"
    )

  /** Fails `req` with [[Timeout]] after `nanos`, unless it completed first. */
  def armDeadline(node: Node, req: Request[?], nanos: Long, deadline: FiniteDuration)(using
      async: Async
  ): weft.runtime.Scheduler.Cancel =
    val counters = node.counters
    async.support.scheduler.schedule(
      nanos,
      () =>
        if req.promise.tryComplete(
            Failure(Timeout(s"${counters.node}: no reply to $req within ${DurationText(deadline)}"))
          )
        then counters.timeouts.incrementAndGet()
    )

  /**
   * Awaits `req`; a cancelled caller marks it abandoned (completes it), so it is never written
   * if it was not yet and its reply is discarded if it was (CancelSuite's regression tests).
   */
  def awaitRequest[T](req: Request[T])(using Async): T =
    try req.promise.future.await
    catch
      case c: CancellationException =>
        req.promise.tryComplete(Failure(c))
        throw c
