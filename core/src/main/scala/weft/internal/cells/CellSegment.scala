package weft
package internal.cells

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.atomic.AtomicReferenceArray
import scala.compiletime.uninitialized

/**
 * A run of cells of an infinite array of cells: the storage of weft's channels
 * (`CellChannel`) and of its semaphore's waiter queue (`SemaphoreQueue`), both after Koval,
 * Alistarh and Elizarov, "Fast and Scalable Channels in Kotlin Coroutines" (PPoPP 2023). Cell
 * `i` lives in segment `i >>> shift` (see [[CellIndex]]); segments are created on demand by
 * whichever thread first needs one (one CAS of the forward link decides), so the array grows
 * without a lock. What a cell holds is the owning queue's business.
 *
 * ==Removal (after the segment list of kotlinx.coroutines)==
 * Only in a ''removable'' list (the semaphore's): a run whose every claim was given up is
 * unlinked at once, so a semaphore held for long while many waiters give up (selects that time
 * out, cancelled acquirers) keeps only the runs that still hold a live claim. Each give-up
 * counts itself in its segment ([[gaveUp]]). A segment whose every cell was given up is
 * ''dead'': no claim in it can be served any more, and a releaser that reaches one of its cells
 * passes the permit on as it would for a given-up cell. A dead segment is removed (flagged, then
 * linked around) when it also has a successor (the tail stays, so the list never loses its end,
 * and the acquirer that appends after a dead tail removes it) and a predecessor (a segment with
 * none is the one the releasers' hint points at, the anchor; it goes when the hint moves past
 * it). Unlinking links the nearest live neighbours to each other and repeats while either of them
 * got removed meanwhile, so two removals of neighbours never resurrect one of them for good.
 * Walkers never need a removed segment: [[find]] skips them, and a removed segment keeps its
 * forward link, so a walker standing on one still reaches the live ones.
 * `SemaphoreGiveUpSuite` counts the segments left after many give-ups;
 * `SemaphoreLincheckSuite` checks permits across removals with two-cell segments.
 *
 * A channel's list is not removable (a channel's cells are passed by both sides, never given
 * up): its segments have no backward link, so the ones behind every hint are collected.
 *
 * @param id
 *   the segment's place: it holds cells `id * size` to `id * size + size - 1`
 * @param size
 *   cells per segment, a power of two
 * @param before
 *   the predecessor in a removable list; `null` for the first segment and in a list that is not
 *   removable
 * @param removable
 *   whether segments whose every cell was given up are unlinked
 */
final private[weft] class CellSegment(
    val id: Long,
    size: Int,
    before: CellSegment | Null,
    removable: Boolean
):
  import CellSegment.*

  /** The cells; `null` is an empty cell. */
  val cells = AtomicReferenceArray[AnyRef](size)

  @volatile private var nextRef: CellSegment | Null = uninitialized
  @volatile private var prevRef: CellSegment | Null = uninitialized
  @volatile private var givenUp: Int = uninitialized
  @volatile private var removed: Boolean = uninitialized

  // A plain store: no fence in the constructor (the segment is published by the CAS of its
  // predecessor's `nextRef`, or by the queue's final hint fields).
  if before != null then PREV.set(this, before)

  /** The next segment, if one was created. */
  def next: CellSegment | Null = nextRef

  /** Whether the segment was unlinked (all its cells given up). */
  def isRemoved: Boolean = removed

  /**
   * The first segment not removed whose id is at least `targetId`, walking (and creating)
   * forward from this one. Its id is larger than `targetId` only if the segment of `targetId` was
   * removed, that is, every claim in it was given up.
   */
  def find(targetId: Long): CellSegment =
    // Nearly always the hint a caller starts from is the segment it needs: that test stays small
    // enough to be inlined on every operation of a channel (channel-sync and the other channel
    // benchmarks); a list that is not removable skips the volatile read of the flag.
    if id >= targetId && !(removable && removed) then this else walk(targetId)

  /** [[find]] past this segment. */
  private def walk(targetId: Long): CellSegment =
    var s = this
    while s.id < targetId || (removable && s.removed) do
      val n = s.nextRef
      if n != null then s = n.nn
      else
        val created = CellSegment(s.id + 1, size, if removable then s else null, removable)
        if NEXT.compareAndSet(s, null, created) then
          if removable then s.tryRemove() // a dead tail waited for a successor to be removed
          s = created
        else s = s.nextRef.nn
    s

  /** Forgets the predecessor: the releasers' hint reached this segment (it is the anchor now). */
  def becameHead(): Unit = prevRef = null

  /** Counts one cell given up in this segment; removes the segment if all of them are. */
  def gaveUp(): Unit =
    if (GIVEN.getAndAdd(this, 1): Int) + 1 == size then tryRemove()

  /** Removes the segment if it is dead, has both neighbours, and nobody removed it yet. */
  private def tryRemove(): Unit =
    if givenUp == size && nextRef != null && prevRef != null &&
      REMOVED.compareAndSet(this, false, true)
    then unlink()

  /** Links the nearest live neighbours to each other (see the header). */
  private def unlink(): Unit =
    var again = true
    while again do
      var p = prevRef
      while p != null && p.nn.removed do p = p.nn.prevRef
      var n = nextRef.nn
      while n.removed do n = n.nextRef.nn
      // Keep a null predecessor: that segment is the anchor.
      var linked = false
      while !linked do
        val cur = n.prevRef
        linked = cur == null || PREV.compareAndSet(n, cur, p)
      if p != null then p.nn.nextRef = n
      again = n.removed || (p != null && p.nn.removed)

private[weft] object CellSegment:

  /**
   * A listener that records the segment a queue of cells put it in, so that dropping it needs no
   * scan of the queue (see `SemaphoreQueue.drop`): an await's waiter and a select's case
   * listener, each queued at most once. Written before the listener is stored in its cell, so
   * whoever drops it after its registration returned sees it; a `null` read means a scan.
   * `SemaphoreGiveUpSuite`, "awaiting listeners cancelled in any order", re-checks it.
   */
  trait Findable:
    /** The segment this listener was queued in, or `null`. */
    var queuedIn: AnyRef | Null = null

  /** The first segment of a new list of segments of `1 << shift` cells. */
  def first(shift: Int, removable: Boolean): CellSegment =
    CellSegment(0, 1 << shift, null, removable)

  private val lookup = MethodHandles.privateLookupIn(classOf[CellSegment], MethodHandles.lookup())
  private def handle(name: String, tpe: Class[?]): VarHandle =
    lookup.findVarHandle(classOf[CellSegment], name, tpe)
  private val NEXT = handle("nextRef", classOf[CellSegment])
  private val PREV = handle("prevRef", classOf[CellSegment])
  private val GIVEN = handle("givenUp", classOf[Int])
  private val REMOVED = handle("removed", classOf[Boolean])
