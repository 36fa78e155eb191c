package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.atomic.AtomicReferenceArray
import scala.compiletime.uninitialized

/**
 * A run of cells of a [[SemaphoreQueue]], linked both ways so that a run whose every claim was
 * given up can be unlinked at once: a semaphore held for long while many waiters give up (selects
 * that time out, cancelled acquirers) then keeps only the runs that still hold a live claim,
 * instead of every given-up cell until a release passes it.
 *
 * ==Removal (after the segment list of kotlinx.coroutines, which the channels paper of Koval,
 * Alistarh and Elizarov describes)==
 * Each give-up counts itself in its segment ([[gaveUp]]). A segment whose every cell was given
 * up is ''dead'': no claim in it can be served any more, and a releaser that reaches one of its
 * cells passes the permit on as it would for a given-up cell. A dead segment is removed
 * (flagged, then linked around) when it also has a successor (the tail stays, so the list never
 * loses its end, and the acquirer that appends after a dead tail removes it) and a predecessor
 * (a segment with none is the one the releasers' hint points at, the anchor; it goes when the
 * hint moves past it). Unlinking links the nearest live neighbours to each other and repeats
 * while either of them got removed meanwhile, so two removals of neighbours never resurrect one
 * of them for good. Walkers never need a removed segment: [[find]] skips them, and a removed
 * segment keeps its forward link, so a walker standing on one still reaches the live ones.
 * `SemaphoreSuite` counts the segments left after many give-ups (`reachableSegments`);
 * `SemaphoreLincheckSuite` checks permits across removals with two-cell segments.
 *
 * @param id
 *   the segment's place: it holds cells `id * size` to `id * size + size - 1`
 * @param size
 *   cells per segment
 */
final private[weft] class SemaphoreSegment(
    val id: Long,
    size: Int,
    before: SemaphoreSegment | Null
):
  import SemaphoreSegment.*

  /** The cells; `null` is an empty cell (see [[SemaphoreQueue]] for their states). */
  val cells = AtomicReferenceArray[AnyRef](size)

  @volatile private var nextRef: SemaphoreSegment | Null = uninitialized
  @volatile private var prevRef: SemaphoreSegment | Null = before
  @volatile private var givenUp: Int = uninitialized
  @volatile private var removed: Boolean = uninitialized

  /** The next segment, if one was created. */
  def next: SemaphoreSegment | Null = nextRef

  /** Whether the segment was unlinked (all its cells given up). */
  def isRemoved: Boolean = removed

  /**
   * The first segment not removed whose id is at least `targetId`, walking (and creating)
   * forward from this one. Its id is larger than `targetId` only if the segment of `targetId` was
   * removed, that is, every claim in it was given up.
   */
  def find(targetId: Long): SemaphoreSegment =
    var s = this
    while s.id < targetId || s.removed do
      val n = s.nextRef
      if n != null then s = n.nn
      else
        val created = SemaphoreSegment(s.id + 1, size, s)
        if NEXT.compareAndSet(s, null, created) then
          s.tryRemove() // a dead tail waited for a successor to be removed
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

private[weft] object SemaphoreSegment:
  private val lookup =
    MethodHandles.privateLookupIn(classOf[SemaphoreSegment], MethodHandles.lookup())
  private def handle(name: String, tpe: Class[?]): VarHandle =
    lookup.findVarHandle(classOf[SemaphoreSegment], name, tpe)
  private val NEXT = handle("nextRef", classOf[SemaphoreSegment])
  private val PREV = handle("prevRef", classOf[SemaphoreSegment])
  private val GIVEN = handle("givenUp", classOf[Int])
  private val REMOVED = handle("removed", classOf[Boolean])
