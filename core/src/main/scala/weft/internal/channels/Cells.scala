package weft
package internal.channels

import weft.channels.*

import java.util.concurrent.atomic.{AtomicReference, AtomicReferenceArray}
import scala.compiletime.uninitialized
import scala.util.{Success, Try}
import weft.{Listener, ListenerLock, NumberedLock, Source}
import weft.internal.cells.{CellSegment, Marker}
import weft.runtime.Fiber

/** The cell states and building blocks of [[CellChannel]]. */
private[weft] object Cells:

  /** A channel's segments hold `1 << SegmentShift` cells (see [[CellSegment]], [[CellIndex]]). */
  final val SegmentShift = 5

  /** The buffer window reached this cell before its sender did: the sender may buffer. */
  val InBuffer = Marker("IN_BUFFER")

  /** The value of this cell was delivered. */
  val Done = Marker("DONE")

  /** Nothing is exchanged in this cell (a party left or lost); both sides skip it. */
  val Broken = Marker("BROKEN")

  /** Outcome of a waiter: the channel was closed. */
  val Closed = Marker("CLOSED")

  /** Stands for a `null` value sent on the channel. */
  val NullValue = Marker("NULL")

  /** Encodes a value for storage in a cell. */
  inline def encode(x: Any): AnyRef = if x == null then NullValue else x.asInstanceOf[AnyRef]

  /** Decodes a stored value. */
  inline def decode[T](v: AnyRef): T = (if v eq NullValue then null else v).asInstanceOf[T]

  /**
   * A blocking reader parked in a cell; `outcome` is set once: a value, `Closed` or `Broken`.
   * @param owner
   *   the reading context: a sender hands nothing to a reader whose future has a cancellation
   *   pending (see [[declined]])
   */
  final class Reader(val fiber: Fiber, val owner: weft.Async):
    // `uninitialized`, not `= null`: an initializer is a volatile store, a full fence in the
    // constructor (see "No volatile store in a constructor" in weft.internal.futures.CoreFuture).
    @volatile var outcome: AnyRef | Null = uninitialized

    /** Hands `v` (or a marker) to the reader and wakes it. */
    def wake(v: AnyRef): Unit =
      outcome = v
      fiber.unpark()

  /**
   * Whether a sender meeting reader `r` in cell `i` must not hand it a value: `r`'s future has a
   * cancellation pending (not deferred by `uninterruptible`), so its result is already set and a
   * value it took before waking would be lost with it. The cell is then broken and `r` woken to
   * raise the cancellation, and the sender claims another cell: the value goes to the next
   * reader (ADR 0006; `ChannelSelectSuite`, "a value sent right after a blocked read's future is
   * cancelled goes to the next reader").
   *
   * The check and the hand-over that follows it (a CAS of the cell from `r` to `Done`) are two
   * steps: a cancel between them still delivers the value. That is a value that reached the
   * reader before it noticed the cancel, as one delivered just before it: `r`'s `read()` returns
   * it and the cancellation is raised at its next wait (ADR 0023). A reader gives up only by
   * breaking its own cell, so exactly one of the two CASes wins and the value is never lost nor
   * delivered twice. `CancelledReaderSuite` opens the window deterministically for `send` and a
   * send source's poll and registration; `ChannelStressSuite`, "blocking readers cancelled as values reach them",
   * storms it for every sender kind.
   */
  def declined(seg: CellSegment, i: Int, r: Reader): Boolean =
    if r.owner.cancellationPending then
      if seg.cells.compareAndSet(i, r, Broken) then r.wake(Broken)
      true
    else false

  /**
   * A waiting sender in a cell: a blocking `send` (`fiber` set) or a send source's listener.
   *
   * A listener sender is completed under its lock: the listener's own, or, for a lock-free
   * listener, one of ours (retired on completion so that a completed sender is never completed
   * twice and a dropped one never at all).
   */
  final class Sender(
      val value: AnyRef,
      val fiber: Fiber | Null,
      val listener: Listener[Try[Unit]] | Null,
      val source: Source[Try[Unit]] | Null,
      registry: java.util.Map[Listener[Try[Unit]], Sender] | Null
  ):
    // Defaults left implicit: no volatile store (a full fence) in the constructor.
    @volatile var outcome: AnyRef | Null = uninitialized
    @volatile var dropped: Boolean = uninitialized
    @volatile var segment: CellSegment | Null = uninitialized
    @volatile var index: Int = uninitialized

    private val own: NumberedLock | Null =
      if listener != null && listener.nn.lock == null then NumberedLock() else null

    /** The lock that guards completing this sender (`null` for a blocking send). */
    val lock: ListenerLock | Null = if own != null then own
    else
      listener match
        case null => null
        case l    => l.nn.lock

    /** Whether this is a blocking `send` (completed by setting `outcome`). */
    inline def isBlocking: Boolean = fiber != null

    /** Acquires the lock (always true for a blocking send). */
    def acquire(): Boolean = lock == null || lock.nn.acquire()

    /** Releases the lock without completing. */
    def release(): Unit = if lock != null then lock.nn.release()

    /** Completes the sender with `Done` (delivered) or `Closed`; the lock, if any, is held. */
    def finish(outcome: AnyRef): Unit =
      val l = listener
      if l == null then
        this.outcome = outcome
        fiber.nn.unparkOther()
      else
        val r: Try[Unit] =
          if outcome eq Done then Success(())
          else scala.util.Failure(source.asInstanceOf[SendSource[?]].closedException())
        l.nn.complete(r, source.nn)
        if own != null then own.nn.retire()
        if registry != null then registry.nn.remove(l, this)

    /** Makes a dropped sender uncompletable (lock held): retires our own lock, else releases. */
    def kill(): Unit =
      if own != null then own.nn.retire() else release()

  /**
   * A listener of `canRead` waiting for a value it accepts, outside the cells (see
   * [[CellChannel]], "Readers that are sources"). Its lock is the listener's, or one of ours.
   */
  final class Watch[T](val k: Listener[Try[T]]):
    private val own: NumberedLock | Null = if k.lock == null then NumberedLock() else null

    /** The lock guarding completion: never `null`. */
    val lock: ListenerLock = if own != null then own.nn else k.lock.nn

    /** Completes the listener (lock held), then retires our own lock. */
    def complete(v: Try[T], src: Source[Try[T]]): Unit =
      k.complete(v, src)
      if own != null then own.nn.retire()

    /** Makes the watch uncompletable (dropped): afterwards `k` is completed or never will be. */
    def kill(): Unit =
      if lock.acquire() then
        if own != null then own.nn.retire() else lock.release()

  /** Outcome of [[lockPair]]. */
  inline val Locked = 0
  inline val FirstGone = 1
  inline val SecondGone = 2
  inline val SameLock = 3

  /**
   * Acquires two (possibly null) locks in the global order, as `Listener.lockBoth` does;
   * `SameLock` (nothing held) when one select both reads and sends on the channel.
   */
  def lockPair(first: ListenerLock, second: ListenerLock | Null): Int =
    if second == null then if first.acquire() then Locked else FirstGone
    else
      val l2 = second.nn
      // A nested race's lock is a wrapper sharing its outer lock's number: same lock too.
      if (first eq l2) || first.number == l2.number then return SameLock
      val firstLow = first.number < l2.number
      val lo = if firstLow then first else l2
      val hi = if firstLow then l2 else first
      if !lo.acquire() then if firstLow then FirstGone else SecondGone
      else if !hi.acquire() then
        lo.release()
        if firstLow then SecondGone else FirstGone
      else Locked
