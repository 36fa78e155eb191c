package weft
package internal.cells

import java.util.concurrent.atomic.AtomicReference
import weft.internal.InternalApi

/**
 * Addressing the infinite array of cells of a [[CellSegment]] list: cell `i` is cell
 * `index(i, shift)` of segment `segmentId(i, shift)`, for segments of `1 << shift` cells. Both
 * queues built on it (a channel's, with a fixed shift, and a semaphore's, whose shift tests
 * lower) find segments through hints that only move forward ([[moveForward]]).
 */
@InternalApi
object CellIndex:

  /** The id of the segment of cell `i`. */
  inline def segmentId(i: Long, inline shift: Int): Long = i >>> shift

  /** The index of cell `i` in its segment. */
  inline def index(i: Long, inline shift: Int): Int = (i & ((1L << shift) - 1)).toInt

  /**
   * Moves `hint` forward to `seg` unless it is already there or beyond (hints never move back);
   * `true` if this call moved it.
   */
  def moveForward(hint: AtomicReference[CellSegment], seg: CellSegment): Boolean =
    var moved = false
    var done = false
    while !done do
      val h = hint.get()
      if h.id >= seg.id then done = true
      else if hint.compareAndSet(h, seg) then
        moved = true
        done = true
    moved

  /**
   * The segment of cell `idx`, found walking forward from `h`, a value of `hint` read before
   * `idx` was claimed (the hint may since have moved past `idx`'s segment, and segments are
   * found walking forward only); `hint` is moved forward to it. `after` runs when this call
   * moved the hint (a semaphore's head then forgets the segments behind it).
   */
  inline def segmentFor(
      hint: AtomicReference[CellSegment],
      h: CellSegment,
      idx: Long,
      inline shift: Int
  )(inline after: CellSegment => Unit): CellSegment =
    val seg = h.find(segmentId(idx, shift))
    if (seg ne h) && moveForward(hint, seg) then after(seg)
    seg
