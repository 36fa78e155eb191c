package weft
package internal.keyed

import weft.keyed.*

import java.util.concurrent.{ConcurrentHashMap, CountDownLatch}
import java.util.concurrent.atomic.AtomicInteger
import org.jetbrains.kotlinx.lincheck.annotations.{Operation, Param}
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen
import weft.LincheckRuns
import weft.testing.Stress
import weft.internal.keyed.{ReadyQueue, ReadyWork}

/** A work item for the tests: a number. */
final case class Item(v: Int) extends ReadyWork

/** Lincheck target: the ready queue of the worker pool against a sequential FIFO queue. */
@Param(name = "v", gen = classOf[IntGen], conf = "1:5")
class LincheckReadyQueue:
  private val q = ReadyQueue()

  @Operation def offer(v: Int): Unit = q.offer(Item(v))

  @Operation def poll(): Integer | Null = q.poll() match
    case Item(v) => Integer.valueOf(v)
    case _       => null

  @Operation def isEmpty: Boolean = q.isEmpty

/** The worker pool's queue of ready work: FIFO, nothing lost or taken twice, linearizable. */
class ReadyQueueSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(120, "s")

  test("first in, first out; empty after the last poll"):
    val q = ReadyQueue()
    assert(q.isEmpty)
    assertEquals(q.poll(), null)
    val items = (0 until 100).map(Item(_))
    items.foreach(q.offer)
    assert(!q.isEmpty)
    assertEquals((0 until 100).map(_ => q.poll()), items)
    assert(q.isEmpty)
    assertEquals(q.poll(), null)

  test("many producers and consumers: every item taken exactly once, each producer's in order"):
    val producers = 3
    val consumers = 3
    val perProducer = 200_000
    val q = ReadyQueue()
    val taken = ConcurrentHashMap[Int, AtomicInteger]()
    val outOfOrder = AtomicInteger()
    val remaining = AtomicInteger(producers * perProducer)
    val start = CountDownLatch(1)
    val threads =
      (0 until producers).map: p =>
        Thread.ofPlatform().start: () =>
          start.await()
          for i <- 0 until perProducer do q.offer(Item(p * perProducer + i))
      ++ (0 until consumers).map: _ =>
        Thread.ofPlatform().start: () =>
          start.await()
          val last = Array.fill(producers)(-1)
          while remaining.get() > 0 do
            q.poll() match
              case null =>
              case Item(v) =>
                val p = v / perProducer
                if v <= last(p) then outOfOrder.incrementAndGet()
                last(p) = v
                taken.computeIfAbsent(v, _ => AtomicInteger()).incrementAndGet()
                remaining.decrementAndGet()
              case other => fail(s"unexpected $other")
    start.countDown()
    threads.foreach(t => weft.testing.Waits.join(t, "a producer or consumer of the queue"))
    assertEquals(taken.size, producers * perProducer)
    taken.forEach((v, n) => assertEquals(n.get, 1, s"item $v taken ${n.get} times"))
    assertEquals(outOfOrder.get, 0, "a consumer saw a producer's items out of order")
    assert(q.isEmpty)

  test("linearizable under model checking".tag(Stress.tag)):
    LincheckRuns.modelCheck(classOf[LincheckReadyQueue], 20, 100, threads = 3, actorsPerThread = 3)

  test("linearizable under stress".tag(Stress.tag)):
    LincheckRuns.stress(classOf[LincheckReadyQueue], 20, 1000, threads = 3, actorsPerThread = 3)
