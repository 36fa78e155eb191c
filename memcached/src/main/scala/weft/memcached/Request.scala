package weft.memcached

import java.util.concurrent.CancellationException
import scala.concurrent.duration.FiniteDuration
import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Failure, Success, Try}
import weft.{Async, Listener, Promise, await}
import weft.internal.futures.CoreFuture
import weft.internal.runtime.DurationText

/**
 * One request and its call: what to ask (the subclass's fields, encoded by the connection's
 * [[Wire]]), and the future its caller holds. The request is its own future, so a call
 * allocates the request and nothing else to wait on: no promise, no fiber.
 *
 * ==Lifecycle==
 *   1. [[send]] arms the call's deadline, then puts the request on its node's connection; a
 *      refusal (closed client, node down, queue full, out of time) completes it with that typed
 *      error instead of throwing, so a pipelined caller sees every outcome in the future. A
 *      call with the client's default deadline (the common case) is due at [[sweptDue]], which
 *      its connection's sweep enforces; any other deadline arms a timer of its own.
 *   1. The connection's writer gives it its numbers (`opaque`, `seq`), the [[Wire]] encodes it,
 *      and it joins the in-flight queue; the reader hands it the replies (through the wire)
 *      until it is complete.
 *   1. Whoever completes it first wins: the reply, the deadline ([[Timeout]]), a close of the
 *      connection, or the caller giving up ([[cancel]], or a direct caller cancelled while in
 *      [[awaitCall]]). Completing cancels the deadline's timer.
 *
 * ==Giving up (ADR 0005)==
 * A request completed by its caller stays where it is: unwritten, the writer drops it;
 * written, its reply is still read, handed to it, completes nothing, and is counted late. So a
 * reply only ever reaches the request it answers (`MixUpSuite`, `PipelinedSuite`).
 */
abstract private[memcached] class Request[T] extends CoreFuture[T]:

  /** The first opaque number, set by the writer. */
  var opaque: Int = 0

  /**
   * The request's number on its connection (1, 2, ... in the order written), set by the
   * writer; the reader hands the k-th complete reply only to request number k.
   */
  var seq: Long = 0L

  /** The connection clock's time when written (for liveness), set by the writer. */
  @volatile var writtenAt: Long = 0L

  // the deadline's timer: written by `send` before the request is queued (which publishes it to
  // the writer and reader) and before `send` returns it to its caller
  private var timer: weft.runtime.Scheduler.Cancel | Null = null

  /**
   * When the call is due (`Clocks.now` time), if its connection's sweep enforces its deadline
   * (the client's default deadline: see [[Connection.expireDue]]); 0 when it has a timer of its
   * own. Written by [[send]] before the request is queued.
   */
  var sweptDue: Long = 0L

  /** How many opaque numbers this request uses. */
  def opaques: Int = 1

  /** Completes with `result` unless done; cancels the deadline. `true` if this call did. */
  final def complete(result: Try[T]): Boolean =
    if tryComplete(result) then
      val t = timer
      if t != null then
        val _ = t.cancel()
      true
    else false

  /** Completes with `v`; `true` (the request is done). */
  final def done(v: T): Boolean =
    complete(Success(v))
    true

  /** Completes with the failure `e`; `true` (the request is done). */
  final def failed(e: Throwable): Boolean =
    complete(Failure(e))
    true

  /** The caller gives up: the request completes as cancelled and is abandoned (see above). */
  override def cancel(): Unit =
    val _ = complete(Failure(CancellationException("the call was cancelled")))

  /**
   * Starts the call on `node`, due by `due` (`Clocks.now` time): arms the deadline, then
   * submits. Never throws a [[MemcachedException]]: a refusal completes the request.
   */
  final def send(client: MemcachedClient, node: Node, due: Long, deadline: FiniteDuration)(using
      async: Async
  ): this.type =
    val left = due - Clocks.now()
    if client.isClosed then complete(Failure(ClientClosed("the client is closed")))
    else if left <= 0 then complete(Failure(lateBeforeSending(node, deadline)))
    else
      if deadline == client.defaultDeadline then sweptDue = due
      else
        val counters = node.counters
        timer = async.support.scheduler.schedule(
          left,
          () =>
            val _ = expire(counters, deadline)
        )
      try node.submit(this)
      catch case e: MemcachedException => complete(Failure(e))
    this

  /**
   * Waits for the result (the direct-style call): the value, or the failure thrown. A caller
   * cancelled while waiting abandons the request ([[cancel]]; `CancelSuite`).
   */
  final def awaitCall()(using async: Async): T =
    try async.await(this).get
    catch
      case c: CancellationException =>
        cancel()
        throw c

  /**
   * Fails the request with [[Timeout]] unless done; `true` if this call did. Counted before the
   * request completes, so a caller that sees its timeout sees the count too (GiveUpSuite read
   * it once before a descheduled timer thread had counted); a reply that wins the race at the
   * same instant takes the count back.
   */
  final def expire(counters: NodeCounters, deadline: FiniteDuration): Boolean =
    if isDone then false
    else
      counters.timeouts.incrementAndGet()
      val expired = complete(
        Failure(Timeout(s"${counters.node}: no reply to $this within ${DurationText(deadline)}"))
      )
      if !expired then counters.timeouts.decrementAndGet()
      expired

  /** The [[Timeout]] of a request whose call ran out of time before it was sent (counted). */
  final def lateBeforeSending(node: Node, deadline: FiniteDuration): Timeout =
    node.counters.timeouts.incrementAndGet()
    Timeout(
      s"${node.counters.node}: $this not sent, the call's deadline (${DurationText(deadline)}) passed first"
    )

/** Waiting for several requests. */
private[memcached] object Request:

  /**
   * Waits until every one of `requests` is done, however it ended, waking once: awaiting them
   * one by one woke the caller once per request still pending, a platform thread's park and
   * wake-up each (`memcached-cluster-3`: a multi-get's three chunks). A cancelled caller is
   * thrown out of the wait; the caller then abandons the requests. Used by [[MultiGet]] and
   * [[Broadcast]].
   */
  def awaitEvery(requests: Seq[Request[?]])(using Async): Unit =
    val pending = requests.filterNot(_.isDone)
    if pending.length > 1 then
      val all = Promise[Unit]()
      val remaining = AtomicInteger(pending.length)
      val l = Listener[Any]: (_, _) =>
        if remaining.decrementAndGet() == 0 then all.tryComplete(Success(())): Unit
      pending.foreach(_.onComplete(l))
      try all.future.await
      finally pending.foreach(_.dropListener(l))
