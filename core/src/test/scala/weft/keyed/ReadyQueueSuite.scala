package weft.keyed

import java.util.concurrent.{ConcurrentHashMap, CountDownLatch}
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import org.jetbrains.kotlinx.lincheck.annotations.{Operation, Param}
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen
import weft.LincheckRuns

/**
 * Lincheck target: a [[ReadyQueue]] fed with fresh lanes (a lane is offered once in its life);
 * a poll returns the key of the lane it took (0 if none).
 */
@Param(name = "v", gen = classOf[IntGen], conf = "1:5")
class LincheckReadyQueue:
  private val q = ReadyQueue()

  @Operation def offer(v: Int): Unit = q.offer(Lane[Int](v, null))

  @Operation def poll(): Int =
    val l = q.poll()
    if l == null then 0 else l.key.asInstanceOf[Int]

  @Operation def isEmpty(): Boolean = q.isEmpty

/** The queue of ready lanes: FIFO, nothing lost or duplicated under concurrency. */
class ReadyQueueSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(120, "s")

  test("first in, first out; empty when drained"):
    val q = ReadyQueue()
    assert(q.isEmpty)
    assertEquals(q.poll(), null)
    val lanes = (0 until 100).map(i => Lane[Int](i, null))
    lanes.foreach(q.offer)
    assert(!q.isEmpty)
    assertEquals((0 until 100).map(_ => q.poll().nn.key: Any), (0 until 100).map(i => i: Any))
    assert(q.isEmpty)
    assertEquals(q.poll(), null)
    val more = Lane[Int](100, null)
    q.offer(more)
    assert(q.poll() eq more)

  test("many offerers and pollers: every lane polled exactly once, each offerer's order kept"):
    val offerers = 3
    val pollers = 3
    val perOfferer = 200_000
    val q = ReadyQueue()
    val seen = ConcurrentHashMap[Lane[?], AtomicInteger]()
    val polled = AtomicLong()
    val misordered = AtomicInteger()
    val start = CountDownLatch(1)
    val os = (0 until offerers).map: id =>
      Thread.ofPlatform().start: () =>
        start.await()
        var i = 0
        while i < perOfferer do
          q.offer(Lane[Long](id.toLong << 32 | i, null))
          i += 1
    val ps = (0 until pollers).map: _ =>
      Thread.ofPlatform().start: () =>
        val last = Array.fill(offerers)(-1L)
        start.await()
        while polled.get() < offerers.toLong * perOfferer do
          val l = q.poll()
          if l != null then
            seen.computeIfAbsent(l, _ => AtomicInteger()).incrementAndGet()
            val key = l.key.asInstanceOf[Long]
            val (from, i) = ((key >>> 32).toInt, key & 0xffffffffL)
            // one poller sees each offerer's lanes in increasing order
            if i <= last(from) then misordered.incrementAndGet()
            last(from) = i
            polled.incrementAndGet()
    start.countDown()
    (os ++ ps).foreach(_.join())
    assertEquals(seen.size, offerers * perOfferer)
    seen.forEach((l, n) => assertEquals(n.get, 1, s"lane ${l.key} polled ${n.get} times"))
    assertEquals(misordered.get, 0)
    assert(q.isEmpty)

  test("linearizable under model checking"):
    LincheckRuns.modelCheck(classOf[LincheckReadyQueue], 20, 50, threads = 3, actorsPerThread = 3)

  test("linearizable under stress"):
    LincheckRuns.stress(classOf[LincheckReadyQueue], 20, 1000, threads = 3, actorsPerThread = 3)
