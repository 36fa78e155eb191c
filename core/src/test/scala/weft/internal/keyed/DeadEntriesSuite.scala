package weft
package internal.keyed

import weft.keyed.*

import java.util.concurrent.{ConcurrentHashMap, CountDownLatch}
import java.util.concurrent.atomic.AtomicInteger
import weft.internal.keyed.{DeadEntries, KeyedTask}

/** The hand-over of dead key entries from workers to submitters: nothing lost, nothing twice. */
class DeadEntriesSuite extends munit.FunSuite, weft.testing.Deadlined:

  override def testDeadlineSeconds: Int = 60
  override val munitTimeout = scala.concurrent.duration.Duration(60, "s")

  test("a batch is handed over when full or flushed; a sweep removes each entry once"):
    val removed = collection.mutable.ArrayBuffer[KeyedTask[?]]()
    val retired = DeadEntries(l => removed += l)
    val batch = new retired.Batch
    val entries = (0 until DeadEntries.BatchSize + 3).map(i => entry(i))
    entries.take(DeadEntries.BatchSize - 1).foreach(batch.add)
    assert(!retired.pending, "a batch that is not full stays with its worker")
    batch.add(entries(DeadEntries.BatchSize - 1))
    assert(retired.pending, "a full batch is handed over")
    entries.drop(DeadEntries.BatchSize).foreach(batch.add)
    batch.flush()
    retired.sweep()
    assert(!retired.pending)
    assertEquals(removed.toSet, entries.toSet)
    assertEquals(removed.size, entries.size)
    assert(entries.forall(_.nextRetired == null), "a swept entry keeps no link to another")
    retired.sweep()
    assertEquals(removed.size, entries.size)

  test("workers flushing while submitters sweep: every entry is removed exactly once"):
    val workers = 3
    val sweepers = 2
    val perWorker = 200_000
    val removals = ConcurrentHashMap[KeyedTask[?], AtomicInteger]()
    val retired =
      DeadEntries(l => removals.computeIfAbsent(l, _ => AtomicInteger()).incrementAndGet())
    val start = CountDownLatch(1)
    val producing = AtomicInteger(workers)
    val ws = (0 until workers).map: id =>
      Thread.ofPlatform().start: () =>
        val batch = new retired.Batch
        start.await()
        var i = 0
        while i < perWorker do
          batch.add(entry(id * perWorker + i))
          if i % 1000 == 999 then batch.flush() // as on finding no ready lane
          i += 1
        batch.flush()
        producing.decrementAndGet()
    val ss = (0 until sweepers).map: _ =>
      Thread.ofPlatform().start: () =>
        start.await()
        while producing.get() > 0 do retired.sweep()
    start.countDown()
    (ws ++ ss).foreach(t => weft.testing.Waits.join(t, "a worker of the dead-entries test"))
    retired.sweep()
    assertEquals(removals.size, workers * perWorker)
    removals.forEach((l, n) => assertEquals(n.get, 1, s"entry ${l.key} removed ${n.get} times"))
