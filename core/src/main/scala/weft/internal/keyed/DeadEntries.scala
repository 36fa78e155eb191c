package weft
package internal.keyed

import weft.keyed.*

import java.util.concurrent.atomic.AtomicReference

/**
 * Key entries that died on a worker (their key went idle), on their way out of the
 * [[KeyTable]]: the workers hand them over here, and the fibers that submit tasks remove them
 * from the table. (An entry is the task that holds its key, see [[KeyedTask]]; it dies when it
 * finishes alone or when its [[Lane]] retires.)
 *
 * ==Why the worker does not remove the entry itself==
 * With many distinct keys, every task installs an entry (on the submitting fiber's core) and
 * every entry dies after its task (on a worker's core). If the worker removed the entry, each
 * bin of the table would change cores twice per task, and a cache-line transfer per table
 * operation was the largest cost of `submit` in the profile (in the loads of the bins; the
 * sequentially-batch-1000 benchmark re-checks it, figures in docs/perf/keyed.md). So a worker only marks the entry dead (a CAS on the task it just ran, in
 * its cache anyway) and collects it in its own [[Batch]]; full batches go onto one shared
 * stack; the next `submit` or `run` takes the whole stack and removes those entries, from bins
 * it most likely wrote itself a moment ago. The table is then written by the submitting side
 * only.
 *
 * ==Why nothing is lost or kept==
 * A dead entry left in the table is skipped by lookups and replaced by an insertion of its key
 * (see [[KeyTable]]), so deferring its removal changes no result; removal is by identity, so
 * removing an entry already replaced or removed does nothing. Memory stays bounded: a worker
 * holds at most `BatchSize - 1` entries in its batch, flushes it whenever it finds nothing
 * ready, and, once idle, sweeps the shared stack itself if no submission did so within a short
 * delay; so when the work stops, every dead entry leaves the table without waiting for another
 * submission.
 *
 * The stack is a Treiber stack threaded through the entries' `nextRetired` field: a flush
 * pushes a whole batch with one CAS, a sweep takes everything with one `getAndSet`.
 *
 * @param remove
 *   removes an entry from the table (by identity)
 */
private[weft] final class DeadEntries(remove: KeyedTask[?] => Unit):
  import DeadEntries.BatchSize

  private val stack = AtomicReference[KeyedTask[?] | Null]()

  /** Whether dead entries wait for removal. */
  def pending: Boolean = stack.get() != null

  /** Removes from the table every entry handed over so far (any fiber; cheap when none). */
  def sweep(): Unit =
    if pending then
      var l = stack.getAndSet(null)
      while l != null do
        val next = l.nextRetired
        l.nextRetired = null
        remove(l)
        l = next

  /** The dead entries one worker collects before it hands them over (confined to it). */
  final class Batch:
    private var first: KeyedTask[?] | Null = null
    private var last: KeyedTask[?] | Null = null
    private var size = 0

    /** Adds an entry that just died; hands the batch over once it is full. */
    def add(entry: KeyedTask[?]): Unit =
      entry.nextRetired = first
      first = entry
      if last == null then last = entry
      size += 1
      if size >= BatchSize then flush()

    /** Hands the collected entries over to the shared stack (one CAS). */
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

private[weft] object DeadEntries:

  /** Entries a worker collects before it hands them over. */
  inline val BatchSize = 32
