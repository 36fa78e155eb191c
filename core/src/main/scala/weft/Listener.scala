package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.atomic.AtomicLong
import scala.compiletime.uninitialized
import weft.runtime.Fiber

/**
 * A callback that a [[Source]] completes with a value.
 *
 * ==The protocol==
 * A listener either takes the value offered to it and says so by returning `true` from
 * [[completeNow]], or declines it and returns `false`; both happen quickly, without blocking. A
 * source never assumes a value was consumed unless the listener took it, so a value declined by
 * a listener (it lost a race, or a filter rejected it) stays with the source for others.
 *
 * ==Locks==
 * A listener that takes part in a race (it is registered on several sources, and only one may
 * complete it) carries a [[ListenerLock]]. A source completing such a listener:
 *   1. checks [[accepts]] on the value (pure, fast; a `filter` says no here);
 *   1. acquires the lock with [[acquireLock]]; `false` means the listener is already completed
 *      by another source (or gone): the source keeps its value and forgets the listener;
 *   1. commits its own state (e.g. removes the value from a channel) and calls [[complete]],
 *      which releases the lock.
 *   1. If it decides not to complete after acquiring, it calls [[releaseLock]] instead.
 * Steps 1–3 together are [[completeNow]]. A lock is held only for these few steps, never while
 * blocking, so waiting for a lock is a short spin.
 *
 * A source that must complete two locked listeners at once (a channel pairing a waiting sender
 * with a reading select) takes both locks in the order of their [[ListenerLock.number]]s,
 * lowest first. All locks are numbered from one global counter, so two threads pairing
 * overlapping listeners always lock in the same order and can never deadlock.
 *
 * A listener without a lock (`lock == null`) accepts every value it is offered, at most once by
 * the source's own guarantee (a future completes once).
 *
 * @tparam T
 *   the type of values the listener accepts
 */
trait Listener[-T]:
  // Inside weft, `Listener.lockBoth` takes two listeners' locks in number order, and the
  // channels do the same on the locks themselves (`Cells.lockPair`); `ListenerSuite` checks the
  // order.

  /** The lock guarding completion, or `null` when the listener needs none. */
  val lock: ListenerLock | Null

  /**
   * Completes the listener with `data` from `source`. Called only while holding the lock (if
   * any); it releases the lock (retiring it, if the listener can never be completed again).
   */
  def complete(data: T, source: Source[T]): Unit

  /** Whether this listener would take `data`; pure and fast. A filter declines here. */
  def accepts(data: T): Boolean = true

  /** Offers `data`: returns `true` if the listener took it, `false` if it declined. */
  final def completeNow(data: T, source: Source[T]): Boolean =
    if accepts(data) && acquireLock() then
      complete(data, source)
      true
    else false

  /** Acquires the lock (trivially true without one); `false` if already completed elsewhere. */
  inline final def acquireLock(): Boolean =
    val l = lock
    l == null || l.acquire()

  /** Releases the lock without completing. */
  inline final def releaseLock(): Unit =
    val l = lock
    if l != null then l.release()

/** Factories and helpers for [[Listener]]s. */
object Listener:

  /** A listener without a lock that hands every value to `body`. */
  def apply[T](body: (T, Source[T]) => Unit): Listener[T] = new Listener[T]:
    val lock: ListenerLock | Null = null
    def complete(data: T, source: Source[T]): Unit = body(data, source)

  /** Outcome of [[lockBoth]]: `Locked`, or the listener whose lock failed. */
  private[weft] enum LockBoth:
    /** Both locks are held: complete both listeners (each releases its own). */
    case Locked

    /** The first listener is already completed elsewhere; nothing is held. */
    case FirstGone

    /** The second listener is already completed elsewhere; nothing is held. */
    case SecondGone

  /**
   * Acquires the locks of two listeners in the global order of their numbers.
   *
   * On `Locked` the caller must complete (or release) both; otherwise nothing is held.
   */
  private[weft] def lockBoth(first: Listener[?], second: Listener[?]): LockBoth =
    val l1 = first.lock
    val l2 = second.lock
    if l1 == null then if second.acquireLock() then LockBoth.Locked else LockBoth.SecondGone
    else if l2 == null then if first.acquireLock() then LockBoth.Locked else LockBoth.FirstGone
    else if (l1 eq l2) || l1.number == l2.number then
      throw IllegalArgumentException("lockBoth: both listeners share one lock")
    else
      val firstIsLower = l1.number < l2.number
      val (lo, hi) = if firstIsLower then (l1, l2) else (l2, l1)
      if !lo.acquire() then if firstIsLower then LockBoth.FirstGone else LockBoth.SecondGone
      else if !hi.acquire() then
        lo.release()
        if firstIsLower then LockBoth.SecondGone else LockBoth.FirstGone
      else LockBoth.Locked
