package weft.keyed

import java.util.concurrent.atomic.AtomicReference

/**
 * Lanes that retired on a worker, on their way out of the [[LaneTable]]: the workers hand them
 * over here, and the fibers that submit tasks remove them from the table.
 *
 * ==Why the worker does not remove its lane itself==
 * With many distinct keys, every task installs a lane (on the submitting fiber's core) and
 * every lane retires after its task (on a worker's core). If the worker removed the lane, each
 * bin of the table would change cores twice per task, and a cache-line transfer per table
 * operation was the largest cost of `submit` in the profile (about 40% of the samples, in the
 * loads of the bins). So a worker only marks the lane retired (a CAS on the lane, which it has
 * in its cache anyway) and collects it in its own [[Batch]]; full batches go onto one shared
 * stack; the next `submit` or `run` takes the whole stack and removes those lanes, in bins it
 * most likely wrote itself a moment ago. The table is then written by the submitting side only.
 *
 * ==Why nothing is lost or kept==
 * A retired lane left in the table is dead: lookups skip it and an insertion of its key
 * replaces it (see [[LaneTable]]), so deferring its removal changes no result; removal is by
 * identity, so removing a lane already replaced or removed does nothing. Memory stays bounded:
 * a worker holds at most `BatchSize - 1` lanes in its batch, flushes it whenever it finds no
 * ready lane, and, once idle, sweeps the shared stack itself if no submission did so within
 * a short delay; so when the work stops, every retired lane leaves the table without waiting
 * for another submission.
 *
 * The stack is a Treiber stack threaded through the lanes' `nextRetired` field: a flush pushes
 * a whole batch with one CAS, a sweep takes everything with one `getAndSet`.
 *
 * @param remove
 *   removes a lane from the table (by identity)
 */
private[keyed] final class RetiredLanes(remove: Lane[?] => Unit):
  import RetiredLanes.BatchSize

  private val stack = AtomicReference[Lane[?] | Null]()

  /** Whether lanes wait for removal. */
  def pending: Boolean = stack.get() != null

  /** Removes from the table every lane handed over so far (any fiber; cheap when none). */
  def sweep(): Unit =
    if pending then
      var l = stack.getAndSet(null)
      while l != null do
        val next = l.nextRetired
        l.nextRetired = null
        remove(l)
        l = next

  /** The retired lanes one worker collects before it hands them over (confined to it). */
  final class Batch:
    private var first: Lane[?] | Null = null
    private var last: Lane[?] | Null = null
    private var size = 0

    /** Adds a lane that just retired; hands the batch over once it is full. */
    def add(lane: Lane[?]): Unit =
      lane.nextRetired = first
      first = lane
      if last == null then last = lane
      size += 1
      if size >= BatchSize then flush()

    /** Hands the collected lanes over to the shared stack (one CAS). */
    def flush(): Unit =
      val f = first
      if f != null then
        val l = last.nn
        var pushed = false
        while !pushed do
          val top = stack.get()
          l.nextRetired = top
          pushed = stack.compareAndSet(top, f)
        first = null
        last = null
        size = 0

private[keyed] object RetiredLanes:

  /** Lanes a worker collects before it hands them over. */
  inline val BatchSize = 32
