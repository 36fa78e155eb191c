package weft
package internal.futures

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.CancellationException
import scala.annotation.tailrec
import scala.compiletime.uninitialized
import scala.util.{Failure, Success, Try}
import weft.internal.InternalApi

/**
 * The completable future underneath every weft [[Future]].
 *
 * ==State==
 * One volatile field, changed only by compare-and-set through a `VarHandle`:
 *   - `null`: pending, no listeners;
 *   - a [[Listener]]: pending, with that one listener (the common case: one awaiter), kept
 *     without a node;
 *   - a [[CoreFuture.Waiters]] node: pending, with an immutable list of two or more listeners;
 *   - a `Try[T]`: done; never changes again.
 *
 * Adding or dropping a listener swaps in a new list; completing swaps in the result and then
 * offers it to the listener or to every listener of the list it replaced. No locks; awaiting a
 * completed future reads one field and allocates nothing, and awaiting a pending one allocates
 * only the awaiter's own listener (`ListenerSuite` and `FutureSuite` re-check the transitions).
 *
 * ==No volatile store in a constructor==
 * `state` is declared `= uninitialized`, not `= null`: Scala emits an explicit store for an
 * initializer, even of the default value, and a volatile store is a full fence (on x86 a locked
 * instruction that waits for the store buffer to drain, with all the freshly allocated lines
 * in it). Objects made per operation (futures, tasks, lanes, locks, groups) follow this rule
 * everywhere in weft: defaults are left implicit, and a non-default initial value is written
 * with a plain `VarHandle.set` (safe, since every such object is published by a CAS or a
 * volatile write). A keyed `submit` used to pay several such fences; the
 * sequentially-batch-1000 benchmark re-checks it (docs/perf/keyed.md).
 */
@InternalApi
class CoreFuture[T]() extends Future[T]:
  import CoreFuture.*

  @volatile private var state: AnyRef | Null = uninitialized

  /** A future completes each listener alone (see [[Source.completesUnpaired]]). */
  override private[weft] final def completesUnpaired: Boolean = true

  /** The result once done (a `Try`, never `null`), else `null`. */
  override private[weft] final def readyValue: AnyRef | Null = state match
    case r: Success[?] => r
    case r: Failure[?] =>
      failureObserved()
      r
    case _ => null

  /**
   * Called when a failed result is handed to anyone (read, polled or offered to a listener): a
   * runnable future then knows its failure was observed and is not reported as unobserved at the
   * end of its scope (see [[UnobservedFailures]]). Only on failures, so it costs the common path
   * nothing.
   */
  private[weft] def failureObserved(): Unit = ()

  /** Whether the future has a result. */
  final def isDone: Boolean = state.isInstanceOf[Try[?]]

  /** The result; only valid when [[isDone]]. */
  private[weft] final def resultNow: Try[T] = state.asInstanceOf[Try[T]]

  final def poll(k: Listener[Try[T]]): Boolean = state match
    case r: Try[?] =>
      if r.isFailure then failureObserved()
      k.completeNow(r.asInstanceOf[Try[T]], this)
      true
    case _ => false

  override final def poll(): Option[Try[T]] = state match
    case r: Try[?] =>
      if r.isFailure then failureObserved()
      Some(r.asInstanceOf[Try[T]])
    case _ => None

  @tailrec
  protected final def addListener(k: Listener[Try[T]]): Unit = state match
    case r: Try[?] =>
      if r.isFailure then failureObserved()
      k.completeNow(r.asInstanceOf[Try[T]], this)
    case null => if !STATE.compareAndSet(this, null, k) then addListener(k)
    case w: Waiters =>
      if !STATE.compareAndSet(this, w, Waiters(k, w)) then addListener(k)
    case lone =>
      val l = lone.asInstanceOf[Listener[?]]
      if !STATE.compareAndSet(this, l, Waiters(k, Waiters(l, null))) then addListener(k)

  @tailrec
  final def dropListener(k: Listener[Try[T]]): Unit = state match
    case w: Waiters =>
      val without = w.without(k)
      // A list left with one listener goes back to the lone form.
      val next: AnyRef | Null =
        if without != null && without.next == null then without.head else without
      if (without ne w) && !STATE.compareAndSet(this, w, next) then dropListener(k)
    case _: Try[?] | null => ()
    case lone =>
      if lone == k && !STATE.compareAndSet(this, lone, null) then dropListener(k)

  /** The number of registered listeners (0 once done): for tests and diagnostics. */
  private[weft] final def listenerCount: Int = state match
    case w: Waiters       => w.size
    case _: Try[?] | null => 0
    case _                => 1

  /**
   * Sets the result if not yet done and offers it to the listeners; `false` if already done.
   * Internal API: a module's own operation can be its future (weft-memcached's requests are),
   * so that a call allocates nothing else to wait on.
   */
  @InternalApi @tailrec
  final def tryComplete(result: Try[T]): Boolean = state match
    case _: Try[?] => false
    case s =>
      if STATE.compareAndSet(this, s, result) then
        if s != null && result.isFailure then failureObserved()
        s match
          case null       => ()
          case w: Waiters => w.offerAll(result, this)
          case lone       => offerTo(lone.asInstanceOf[Listener[Try[T]]], result, this)
        true
      else tryComplete(result)

  /** Completes with `Failure(CancellationException)` if pending. */
  def cancel(): Unit =
    tryComplete(Failure(CancellationException("future was cancelled")))

  override def toString: String = state match
    case r: Try[?] => s"Future($r)"
    case _         => "Future(<pending>)"

private[weft] object CoreFuture:

  /**
   * `result`, checked not to be `null`: the public ways to complete a future call this, because
   * `null` is the pending state of `state` (a `null` result would leave the future pending
   * forever and offer `null` to its listeners). The internal completions never pass `null`, so
   * [[tryComplete]] itself stays without the check. A `null` value is fine: `Success(null)`.
   */
  def nonNull[T](result: Try[T]): Try[T] =
    if result == null then
      throw NullPointerException(
        "a future cannot be completed with null (a null value is Success(null))"
      )
    result
  val STATE: VarHandle =
    MethodHandles.privateLookupIn(classOf[CoreFuture[?]], MethodHandles.lookup())
      .findVarHandle(classOf[CoreFuture[?]], "state", classOf[AnyRef])

  /** An immutable list of listeners, newest first. */
  final class Waiters(val head: Listener[?], val next: Waiters | Null):
    def size: Int =
      var n = 0
      var w: Waiters | Null = this
      while w != null do
        n += 1
        w = w.next
      n

    /** The list without the first listener equal to `k`; `this` if absent. Iterative. */
    def without(k: Listener[?]): Waiters | Null =
      var prefix = List.empty[Listener[?]]
      var w: Waiters | Null = this
      while w != null && w.head != k do
        prefix = w.head :: prefix
        w = w.next
      if w == null then this
      else
        var rebuilt: Waiters | Null = w.next
        for l <- prefix do rebuilt = Waiters(l, rebuilt)
        rebuilt

    /**
     * Offers `result` to every listener, oldest first. A listener that throws (a faulty `map`
     * function) does not stop the others: its exception goes to the thread's handler.
     */
    def offerAll[T](result: Try[T], src: Source[Try[T]]): Unit =
      val all = new Array[Listener[?]](size)
      var i = all.length
      var w: Waiters | Null = this
      while w != null do
        i -= 1
        all(i) = w.head
        w = w.next
      while i < all.length do
        offerTo(all(i).asInstanceOf[Listener[Try[T]]], result, src)
        i += 1

  /**
   * Offers `result` to one listener; one that throws (a faulty `map` function) is reported to
   * the thread's handler, so that it cannot stop the other listeners or the completer.
   */
  def offerTo[T](k: Listener[Try[T]], result: Try[T], src: Source[Try[T]]): Unit =
    try k.completeNow(result, src)
    catch case e: Throwable => weft.runtime.Fiber.reportUncaught(e)
