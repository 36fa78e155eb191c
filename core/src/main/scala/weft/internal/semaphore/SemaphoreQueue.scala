package weft
package internal.semaphore

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.atomic.AtomicReference
import weft.runtime.Fiber
import weft.internal.async.Parking
import weft.internal.cells.{CellIndex, CellSegment, Marker}

/**
 * The lock-free FIFO of a [[Semaphore]]'s waiters: the slow path, entered only when no permit was
 * free.
 *
 * ==Algorithm (after the semaphore of kotlinx.coroutines, `SemaphoreImpl`, which uses the cell
 * queue of Koval, Alistarh and Elizarov, "Fast and Scalable Channels in Kotlin Coroutines",
 * PPoPP 2023; weft's channels use the same cells)==
 * The semaphore's `count` (free permits, or minus the number of claims waiting) says who queues:
 * an acquirer whose decrement found no free permit (`count <= 0` before it) has a claim on a
 * cell, and a releaser whose increment found `count < 0` must serve one. Cells form an infinite
 * array, allocated as linked [[CellSegment]]s of 32 (a removable list). An acquirer takes cell
 * `e = FAA(enq)`, a releaser serves cell `d = FAA(deq)`; the two with the same index meet in that
 * cell, whoever comes first leaving something for the other by CAS:
 *   - an acquirer finding the cell empty stores itself there (a blocking `acquire`: its fiber; a
 *     listener of `acquiring`: the listener itself) and waits; finding `Permit` (the
 *     releaser came first) it takes the permit at once;
 *   - a releaser finding the cell empty leaves `Permit`; finding a parked fiber it marks the cell
 *     `Taken` and unparks it; finding a listener it marks the cell `Taken` and offers the
 *     listener a fresh guard;
 *   - a waiter that gives up (its fiber interrupted, its listener dropped) CASes its own entry to
 *     `Cancelled`. If that CAS fails, a releaser served it first and the waiter keeps the permit
 *     (a blocking acquirer returns holding it, with its interrupt raised again for its next wait).
 * A releaser that finds `Cancelled`, or whose listener declines (it lost a race, it was dropped),
 * has not placed its permit: it increments `count` again and serves the next claim, or returns
 * the permit to the count. So every permit is either counted, held, or in the cell of a claim
 * that will take it: none is lost, and none is given twice (each cell has one acquirer and one
 * releaser). A cancelled claim is not taken back from `count` by the waiter that gives up (it
 * cannot tell whether a releaser is already on its way to its cell); the next release pays it.
 *
 * Fairness: claims are served in the order of their cell indices, i.e. of their FAA on `enq`, and
 * `count` is positive only when no claim is waiting, so nobody takes a free permit past a waiter.
 *
 * Memory: a waiter that gave up leaves its cell `Cancelled`, and a segment whose every cell was
 * given up is unlinked at once ([[CellSegment]]), so a semaphore held while many waiters
 * give up keeps only the segments that still hold a live claim (and the one the releasers'
 * hint points at); a releaser whose cell was in a removed segment passes its permit on as for
 * a `Cancelled` cell. Each release moves the head past the cells it served.
 * `SemaphoreLincheckSuite` model-checks conservation; `SemaphoreSuite` and the cancellation storm
 * (`CancellationStormSuite`) check it with real fibers.
 */
private[weft] final class SemaphoreQueue(semaphore: Semaphore, shift: Int):
  import SemaphoreQueue.*
  import CellSegment.Findable

  // enq, deq and the count of `Cancelled` cells not yet passed, each on its own cache line.
  private val counters = new Array[Long](CountersLength)
  private val tailHint = AtomicReference[CellSegment](CellSegment.first(shift, removable = true))
  private val headHint = AtomicReference[CellSegment](tailHint.get())

  // How many drops scanned the queue (not atomic: a figure for tests, see `scansForDrops`).
  private var scans = 0L

  /** Adds `delta` to the counter at `at`; the old value. */
  private inline def add(inline at: Int, delta: Long): Long = COUNTER.getAndAdd(counters, at, delta)

  /** The counter at `at` (a volatile read). */
  private inline def get(inline at: Int): Long = COUNTER.getVolatile(counters, at)

  /** The id of the segment of cell `i`. */
  private inline def segmentId(i: Long): Long = CellIndex.segmentId(i, shift)

  /** The index of cell `i` in its segment. */
  private inline def index(i: Long): Int = CellIndex.index(i, shift)

  /**
   * The acquirer's segment of cell `e`, found from the tail's hint `h`, which moves forward to
   * it. `h` must be read before `e` is claimed: the hint may since have moved past `e`'s segment
   * (to later claims'), and segments are found walking forward only. `SemaphoreLincheckSuite`
   * (two-cell segments) caught an acquirer that read it after.
   */
  private def tailSegment(h: CellSegment, e: Long): CellSegment =
    CellIndex.segmentFor(tailHint, h, e, shift)(_ => ())

  /**
   * The releaser's segment of cell `d`, found from the head's hint `h`, which moves forward to
   * it; that segment then forgets its predecessor (the ones behind the head are done with), so
   * they can be collected. Its id is beyond `d`'s if `d`'s segment was removed.
   */
  private def headSegment(h: CellSegment, d: Long): CellSegment =
    CellIndex.segmentFor(headHint, h, d, shift)(_.becameHead())

  /** Records that the claim in cell `i` of `seg` was given up (its cell is `Cancelled`). */
  private def gaveUp(seg: CellSegment): Unit =
    add(DeadAt, 1L): Unit
    seg.gaveUp()

  /**
   * Waits in a cell for a permit (the caller's decrement found none free). Returns holding the
   * permit. An interrupt before a releaser served the cell gives the claim up and throws, except
   * where the context defers it (a root scope inside `uninterruptible`, see [[Parking]]): the
   * acquirer then keeps waiting and the interrupt is raised when the block ends.
   * @throws java.util.concurrent.CancellationException
   *   if the scope is cancelled while waiting (no permit is then held)
   * @throws InterruptedException
   *   on an interrupt that is not a cancellation of the scope (no permit is then held)
   */
  def await()(using Async): Unit =
    val h = tailHint.get()
    val e = add(EnqAt, 1L)
    val seg = tailSegment(h, e)
    val i = index(e)
    // A parked acquirer is stored as its fiber itself: no allocation on this path either.
    val me = Fiber.current.asInstanceOf[AnyRef]
    if seg.cells.compareAndSet(i, null, me) then
      var interrupted = false
      while seg.cells.get(i) eq me do
        if Parking.parkOnce(this) then
          if seg.cells.compareAndSet(i, me, Cancelled) then
            gaveUp(seg)
            throw Parking.gaveUp("Semaphore.acquire")
          interrupted = true
      if interrupted then Fiber.selfInterrupt()
    else seg.cells.set(i, Taken) // a releaser left `Permit` here first

  /**
   * Queues listener `k` (the caller's decrement found no free permit); it is offered a guard when
   * its turn comes, or right away if a releaser already left a permit in its cell.
   */
  def enqueue(k: Listener[Semaphore.Guard]): Unit =
    val h = tailHint.get()
    val e = add(EnqAt, 1L)
    val seg = tailSegment(h, e)
    val i = index(e)
    k match
      case f: Findable => f.queuedIn = seg
      case _           => ()
    if !seg.cells.compareAndSet(i, null, k) then
      seg.cells.set(i, Taken) // a releaser left `Permit` here first
      semaphore.offerOrRelease(k)

  /**
   * Gives up a queued listener equal to `k` (derived sources re-create equal wrappers to drop
   * them), if any: its cell is passed over by its releaser. A [[CellSegment.Findable]]
   * listener (an await's waiter, a select's case) is looked for in the segment it recorded when
   * queued, so dropping it is O(segment size) however long the queue: not found there, it was
   * served already. Other listeners are scanned for from the head's segment to the tail,
   * skipping removed segments: the cost is the live claims queued before `k` (a map keyed by
   * identity hashes cost an allocation per registration and made Lincheck's replays differ).
   * `k` must have been registered by a call that returned, as `Source.dropListener` requires.
   */
  def drop(k: Listener[Semaphore.Guard]): Unit =
    val hinted = k match
      case f: Findable => f.queuedIn
      case _           => null
    if hinted != null then dropIn(hinted.asInstanceOf[CellSegment], k)
    else
      scans += 1
      var seg = headHint.get()
      var idx = seg.id << shift
      val end = get(EnqAt)
      while idx < end do
        val i = index(idx)
        val c = seg.cells.get(i)
        if (c ne null) && c.isInstanceOf[Listener[?]] && c == k then
          if seg.cells.compareAndSet(i, c, Cancelled) then gaveUp(seg)
          return
        idx += 1
        if index(idx) == 0 then
          seg = seg.find(segmentId(idx))
          idx = seg.id << shift

  /** Gives up listener `k` if it is still queued in a cell of `seg` (the one it was queued in). */
  private def dropIn(seg: CellSegment, k: Listener[Semaphore.Guard]): Unit =
    var i = 0
    while i < (1 << shift) do
      val c = seg.cells.get(i)
      if c eq k then
        if seg.cells.compareAndSet(i, c, Cancelled) then gaveUp(seg)
        return
      i += 1

  /**
   * Serves the oldest claim with one permit (the caller's increment found `count < 0`): `true` if
   * the permit was placed (handed to a waiter or left in its cell), `false` if the claim was given
   * up or its listener declined, so the caller still owns the permit.
   */
  def handOver(): Boolean =
    val h = headHint.get()
    val d = add(DeqAt, 1L)
    val seg = headSegment(h, d)
    if seg.id != segmentId(d) then
      // Its segment was removed: every claim in it, this one too, was given up.
      add(DeadAt, -1L): Unit
      return false
    val i = index(d)
    while true do
      seg.cells.get(i) match
        case null => if seg.cells.compareAndSet(i, null, Permit) then return true
        case Cancelled =>
          add(DeadAt, -1L): Unit
          return false
        case k: Listener[?] =>
          if seg.cells.compareAndSet(i, k, Taken) then
            return semaphore.offerQueued(k.asInstanceOf[Listener[Semaphore.Guard]])
        case fiber =>
          if seg.cells.compareAndSet(i, fiber, Taken) then
            fiber.asInstanceOf[Fiber].unparkOther()
            return true
    false

  /** The claims queued and not given up, now (a snapshot). */
  def waiting: Int =
    val dead = get(DeadAt)
    val deq = get(DeqAt)
    math.max(0L, get(EnqAt) - deq - dead).toInt

  /** How many drops had to scan the queue for their listener (approximate; for tests). */
  private[weft] def scansForDrops: Long = scans

  /**
   * The segments reachable from the hints now, removed or not (a snapshot, for tests: what the
   * queue keeps in memory, bar segments a walker in progress holds).
   */
  private[weft] def reachableSegments: Int =
    val h = headHint.get()
    val t = tailHint.get()
    var seg: CellSegment | Null = if h.id <= t.id then h else t
    var n = 0
    while seg != null do
      n += 1
      seg = seg.nn.next
    n

/**
 * Cell states of [[SemaphoreQueue]]: a cell holds `null` (empty), one of these markers, a queued
 * listener, or a parked fiber.
 */
private[weft] object SemaphoreQueue:

  /** Cells per segment by default: `1 << DefaultShift`, as in a channel. */
  inline val DefaultShift = 5

  /** A releaser came before the cell's acquirer and left it a permit. */
  val Permit = Marker("PERMIT")

  /** The permit of this cell went to its acquirer. */
  val Taken = Marker("TAKEN")

  /** The acquirer of this cell gave up; its releaser passes the permit on. */
  val Cancelled = Marker("CANCELLED")

  /** Where enq, deq and the dead count sit in `counters` (8 longs = 64 bytes apart). */
  inline val EnqAt = 8
  inline val DeqAt = 16
  inline val DeadAt = 24
  inline val CountersLength = 32

  /** Atomic access to `counters`. */
  val COUNTER: VarHandle = MethodHandles.arrayElementVarHandle(classOf[Array[Long]])
