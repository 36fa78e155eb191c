package weft

import java.util.concurrent.locks.ReentrantLock
import scala.util.Try

/**
 * Collects futures as they complete: [[results]] is a source of the futures in the order in
 * which they completed, each offered once (gears' `Future.Collector`; spelled
 * `Future.Collector(...)`).
 *
 * Awaiting `results` takes the next completed future, or waits for one; two readers never get
 * the same future. The collector neither starts, owns nor cancels its futures: it only listens
 * to them.
 *
 * {{{
 * val c = Future.Collector(fetch(a), fetch(b), fetch(c))
 * val firstTwo = c.results.values.take(2).map(_.await).toList // in completion order
 * }}}
 * @param futures
 *   the futures to collect
 */
class Collector[T](futures: Future[T]*):
  import Collector.Results

  private val queue = Results[T]()

  /**
   * The collected futures, completed, in completion order: each await takes the next one (or
   * waits for it). Usable in `Async.race` and `Async.select`; a future offered to a listener
   * that declines it stays for the next reader.
   */
  val results: Source[Future[T]] = queue

  futures.foreach(addFuture)

  /** Starts collecting `future`: it is offered by [[results]] once it has completed. */
  protected final def addFuture(future: Future[T]): Unit =
    future.onComplete(Listener[Try[T]]((_, _) => queue.deliver(future)))

/**
 * A [[Collector]] to which futures can be added while collecting (gears' `MutableCollector`;
 * spelled `Future.MutableCollector(...)`).
 *
 * {{{
 * val c = Future.MutableCollector[Int]()
 * c += Future(1)
 * c.add(Future(2))
 * }}}
 */
class MutableCollector[T](futures: Future[T]*) extends Collector[T](futures*):

  /** Adds `future` to the futures collected. */
  def add(future: Future[T]): Unit = addFuture(future)

  /** Adds `future` to the futures collected; the same as [[add]]. */
  def +=(future: Future[T]): Unit = addFuture(future)

/** Creating collectors. */
object Collector:

  /** A collector of `futures`. */
  def apply[T](futures: Future[T]*): Collector[T] = new Collector[T](futures*)

  /**
   * A queue of completed futures read as a source: each future is offered to the oldest waiting
   * listener first, and kept if every listener declines, so that it goes to exactly one reader.
   *
   * ==Algorithm==
   * A `ReentrantLock` (never `synchronized`, which pins virtual threads) guards two FIFO queues,
   * of ready futures and of waiting listeners; at most one of them is non-empty. A listener is
   * completed through `completeNow` (the listener-lock protocol) while the queue's lock is held;
   * the lock is reentrant because a completed race drops its listener from this queue again on
   * the same thread. A listener that declines (gone, or lost a race) is forgotten.
   * `CollectorSuite` re-checks exactly-once delivery with racing readers.
   */
  private[weft] final class Results[T] extends Source[Future[T]]:
    private val lock = ReentrantLock()
    private val ready = java.util.ArrayDeque[Future[T]]()
    private val waiting = java.util.ArrayDeque[Listener[Future[T]]]()

    /** A future of the collector completed: give it to a waiting listener, or keep it. */
    def deliver(f: Future[T]): Unit =
      lock.lock()
      try
        var taken = false
        while !taken && !waiting.isEmpty do taken = waiting.poll().completeNow(f, this)
        if !taken then ready.add(f): Unit
      finally lock.unlock()

    def poll(k: Listener[Future[T]]): Boolean =
      lock.lock()
      try offerReady(k)
      finally lock.unlock()

    def onComplete(k: Listener[Future[T]]): Unit =
      lock.lock()
      try if !offerReady(k) then waiting.add(k): Unit
      finally lock.unlock()

    def dropListener(k: Listener[Future[T]]): Unit =
      lock.lock()
      try waiting.remove(k): Unit
      finally lock.unlock()

    /** Offers the oldest ready future to `k` (held lock); `true` if one was ready. */
    private def offerReady(k: Listener[Future[T]]): Boolean =
      val f = ready.peek()
      if f == null then false
      else
        if k.completeNow(f, this) then ready.poll(): Unit
        true

    /** Listeners waiting now: for tests. */
    private[weft] def waitingCount: Int =
      lock.lock()
      try waiting.size
      finally lock.unlock()

/** Creating mutable collectors. */
object MutableCollector:

  /** A mutable collector, starting with `futures`. */
  def apply[T](futures: Future[T]*): MutableCollector[T] = new MutableCollector[T](futures*)
