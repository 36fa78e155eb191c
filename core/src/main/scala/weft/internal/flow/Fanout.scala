package weft
package internal.flow

import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Failure, Success}
import weft.channels.{
  BufferedChannel,
  Channel,
  ChannelFailedException,
  ReadableChannel,
  SyncChannel
}
import weft.flow.{Flow, FlowEmit}

/**
 * The asynchronous boundaries of flows: upstream stages on fibers, a bounded channel, and the
 * downstream stages on the fiber that drains it.
 *
 * Every boundary is one [[weft.supervised]] scope. Its body drains the channel into the
 * downstream `emit`, so the stages after the boundary, and what they throw (a failure, a
 * [[FlowStop]]), stay on the body's fiber and leave the scope as its failure; the upstream
 * stages run in futures of the scope, which feed the channel and close it when they end. A
 * failure of any of them fails the scope: the scope cancels the body and the other futures,
 * joins them all, and rethrows that failure unwrapped, so the run fails with exactly what was
 * thrown (`FlowFailureSuite`). When the body ends first (a `take` downstream, `zip` reaching the
 * end of one side), the scope cancels the upstream futures, which are waiting in `send`, and
 * joins them (`FlowCancelSuite` checks that no fiber is left).
 */
private[weft] object Fanout:

  /** A channel of `capacity` elements; 0 is a rendezvous. */
  def channel[T](capacity: Int): Channel[T] =
    if capacity == 0 then SyncChannel[T]() else BufferedChannel[T](capacity)

  /** Reads `ch` until it is closed, pushing each element into `emit`; a failed channel throws its cause. */
  def drain[T](ch: ReadableChannel[T], emit: FlowEmit[T])(using Async): Unit =
    var open = true
    while open do open = next(ch, emit)

  /** Reads one element of `ch` into `emit`: `false` if `ch` is closed (a failed one throws its cause). */
  def next[T](ch: ReadableChannel[T], emit: FlowEmit[T])(using Async): Boolean =
    ch.read() match
      case Success(v)                         => emit(v); true
      case Failure(e: ChannelFailedException) => throw e.getCause
      case Failure(_)                         => false

  /** Runs `flow` on the calling fiber, sending its elements to `ch`. */
  def feed[T](flow: Flow[T], ch: Channel[T])(using a: Async): Unit =
    flow.stage(t => ch.send(t), a)

  /**
   * Runs `upstream` on a fiber that feeds a batching channel of `capacity` elements (see
   * [[Batching]]), and `consume` on its reading side as the body of the boundary's scope.
   */
  def boundary[T, R](upstream: Flow[T], capacity: Int)(
      consume: Batching.Reader[T] => Async ?=> R
  )(using Async): R = feeds(Seq(upstream), capacity)(consume)

  /**
   * Runs each of `flows` on a fiber of its own, all feeding one batching channel of `capacity`
   * elements (plus a batch pending per flow), and `consume` on its reading side as the body of
   * the boundary's scope. The last feeder to end closes the channel, after handing over what it
   * still held.
   */
  def feeds[T, R](flows: Seq[Flow[T]], capacity: Int)(
      consume: Batching.Reader[T] => Async ?=> R
  )(using Async): R =
    supervised:
      val ch = channel[AnyRef](Batching.slots(capacity, flows.size))
      val hunger = Batching.Hunger()
      val max = Batching.batchSize(capacity, flows.size)
      val writers = flows.map(_ => Batching.Writer[T](ch, max, hunger))
      val running = AtomicInteger(flows.size)
      for (f, w) <- flows.zip(writers) do
        Future:
          f.stage(t => w.add(t), summon[Async])
          w.flush()
          if running.decrementAndGet() == 0 then ch.close()
      consume(Batching.Reader[T](ch, writers, hunger))

  /** Pushes every element of `r` into `emit`, until its channel is closed. */
  def drain[T](r: Batching.Reader[T], emit: FlowEmit[T])(using Async): Unit =
    var v = r.next()
    while v.asInstanceOf[AnyRef] ne Batching.Closed do
      emit(v.asInstanceOf[T])
      v = r.next()

  /** Runs each of `flows` on its own fiber, all feeding one boundary of `capacity`, into `emit`. */
  def merge[T](flows: Seq[Flow[T]], capacity: Int, emit: FlowEmit[T])(using Async): Unit =
    feeds(flows, capacity)(r => drain(r, emit))

  /**
   * `mapPar`: each element of `upstream` is mapped by `f` in a future of its own, at most
   * `parallelism` at once, and the results are emitted in the order of their elements.
   *
   * The feeding fiber takes a permit, starts the element's future in the boundary's scope (not
   * as its own child, so that the scope supervises it) and queues the future in a channel; the
   * body awaits the queued futures in order. So at most `parallelism`
   * computations run and at most `parallelism` finished results wait for an earlier one. A
   * failed computation fails the scope at once, even while the body waits for an earlier,
   * slower element.
   */
  def mapPar[T, U](upstream: Flow[T], parallelism: Int, f: T => Async ?=> U, emit: FlowEmit[U])(
      using Async
  ): Unit =
    supervised:
      val scope = Scope.current
      val permits = Semaphore(parallelism)
      // the body holds the future it awaits, the channel the next ones, and the feeding fiber
      // may hold one finished future it cannot queue yet: parallelism - 1 in the channel keeps
      // the finished results waiting for a slower one at `parallelism` (`FlowMapParSuite`)
      val queued = channel[Future[U]](parallelism - 1)
      Future:
        upstream.stage(
          { t =>
            val permit = permits.acquire()
            queued.send(scope.fork(try f(t)
            finally permit.close()))
          },
          summon[Async]
        )
        queued.close()
      drain(queued, (fu: Future[U]) => emit(fu.await))

  /**
   * `mapParUnordered` and `flatMapMerge`: `work` runs for each element of `upstream` in a future
   * of its own, at most `parallelism` at once, and sends what it produces to one channel of
   * `capacity`, drained into `emit` in arrival order.
   *
   * A count of the feeders still running (the upstream's fiber, plus one per started element)
   * closes the channel when it reaches zero: after the upstream ended and every element's
   * work has sent its last value. A failed work fails the scope instead, so it never counts
   * down.
   */
  def unordered[T, U](
      upstream: Flow[T],
      parallelism: Int,
      capacity: Int,
      work: (T, FlowEmit[U]) => Async ?=> Unit,
      emit: FlowEmit[U]
  )(using Async): Unit =
    supervised:
      val scope = Scope.current
      val permits = Semaphore(parallelism)
      val out = channel[U](capacity)
      val running = AtomicInteger(1)
      def feederDone(): Unit = if running.decrementAndGet() == 0 then out.close()
      Future:
        upstream.stage(
          { t =>
            val permit = permits.acquire()
            running.incrementAndGet()
            scope.fork:
              try work(t, u => out.send(u))
              finally permit.close()
              feederDone()
          },
          summon[Async]
        )
        feederDone()
      drain(out, emit)
