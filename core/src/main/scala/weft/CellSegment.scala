package weft

import java.util.concurrent.atomic.{AtomicReference, AtomicReferenceArray}

/**
 * A run of [[CellSegment.Size]] cells of an unbounded array of cells, the storage of weft's
 * channels (`weft.channels.CellChannel`, after Koval, Alistarh and Elizarov's channel design).
 * The semaphore's waiter queue has its own segments (`SemaphoreSegment`), which can be unlinked
 * once every claim in them was given up.
 * Cell `i` lives in segment `i / Size`; segments are linked forward only and created on demand
 * by whichever thread first needs one (one CAS of `next` decides), so the array grows without a
 * lock. What a cell holds is the owning structure's business.
 */
final private[weft] class CellSegment(val id: Long):

  /** The cells; `null` is an empty cell. */
  val cells = AtomicReferenceArray[AnyRef](CellSegment.Size)

  /** The next segment, created on demand by whoever needs it first. */
  val next = AtomicReference[CellSegment | Null](null)

  /** The segment with `targetId`, walking (and creating) forward from this one. */
  def find(targetId: Long): CellSegment =
    var s = this
    while s.id < targetId do
      val n = s.next.get()
      if n != null then s = n.nn
      else
        val created = CellSegment(s.id + 1)
        s = if s.next.compareAndSet(null, created) then created else s.next.get().nn
    s

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

  /** Cells per segment. */
  inline val Size = 32
