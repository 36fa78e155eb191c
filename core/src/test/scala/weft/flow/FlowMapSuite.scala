package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import scala.collection.mutable.ListBuffer
import weft.*
import weft.testing.Deadlined

/**
 * The element-wise fused operators: `map`, `filter`, `collect`, `tap`, `mapConcat`,
 * `zipWithIndex`, `scan`, `intersperse`: values, order, the failure of their function reaching
 * the caller as it was thrown, coldness, and that a fused stage runs on the caller's fiber and
 * produces nothing ahead of its consumer.
 */
class FlowMapSuite extends munit.FunSuite, Deadlined:

  test("map, filter, collect: values in order"):
    Async.blocking:
      assertEquals(Flow(1, 2, 3).map(_ * 10).runToList(), List(10, 20, 30))
      assertEquals(Flow.range(0, 10).filter(_ % 3 == 0).runToList(), List(0, 3, 6, 9))
      assertEquals(
        Flow(1, 2, 3, 4).collect { case i if i % 2 == 0 => s"e$i" }.runToList(),
        List("e2", "e4")
      )
      assertEquals(Flow.empty[Int].map(_ + 1).runToList(), Nil)

  test("collect evaluates its partial function once per element"):
    val guards = AtomicInteger()
    Async.blocking:
      val got =
        Flow(1, 2, 3).collect { case i if { guards.incrementAndGet(); i != 2 } => i }.runToList()
      assertEquals(got, List(1, 3))
    assertEquals(guards.get, 3, "guard evaluations")

  test("tap sees each element before it goes on, in order"):
    val events = ListBuffer.empty[String]
    Async.blocking:
      Flow(1, 2).tap(i => events += s"tap $i").runForeach(i => events += s"got $i")
    assertEquals(events.toList, List("tap 1", "got 1", "tap 2", "got 2"))

  test("mapConcat: each collection's elements, in order; empty ones skipped"):
    Async.blocking:
      assertEquals(
        Flow(0, 1, 2, 3).mapConcat(i => List.fill(i)(i)).runToList(),
        List(1, 2, 2, 3, 3, 3)
      )
      assertEquals(Flow(1, 2).mapConcat(i => Iterator(i, -i)).runToList(), List(1, -1, 2, -2))

  test("zipWithIndex: indices from 0, anew on each run"):
    Async.blocking:
      val f = Flow("a", "b", "c").zipWithIndex
      assertEquals(f.runToList(), List(("a", 0L), ("b", 1L), ("c", 2L)))
      assertEquals(f.runToList(), List(("a", 0L), ("b", 1L), ("c", 2L)))

  test("scan: zero first, then each running result, anew on each run"):
    Async.blocking:
      val f = Flow(1, 2, 3).scan(0)(_ + _)
      assertEquals(f.runToList(), List(0, 1, 3, 6))
      assertEquals(f.runToList(), List(0, 1, 3, 6))
      assertEquals(Flow.empty[Int].scan(7)(_ + _).runToList(), List(7))
      assertEquals(Flow("a", "b").scan("")(_ + _).runToList(), List("", "a", "ab"))

  test("scan then take(1): the zero alone; the upstream never runs"):
    val probe = FlowProbe(Seq(1, 2))
    Async.blocking(assertEquals(probe.flow.scan(0)(_ + _).take(1).runToList(), List(0)))
    assertEquals(probe.runs.get, 0)

  test("intersperse: the separator between each two elements only"):
    Async.blocking:
      val f = Flow(1, 2, 3).intersperse(0)
      assertEquals(f.runToList(), List(1, 0, 2, 0, 3))
      assertEquals(f.runToList(), List(1, 0, 2, 0, 3), "each run starts without a separator")
      assertEquals(Flow(1).intersperse(0).runToList(), List(1))
      assertEquals(Flow.empty[Int].intersperse(0).runToList(), Nil)

  /** Each operator with a function that throws `boom` at the second element. */
  def failing(boom: Boom): Seq[(String, Flow[Int])] =
    val src = Flow(1, 2, 3)
    def f(i: Int): Int = if i == 2 then throw boom else i
    Seq(
      "map" -> src.map(f),
      "filter" -> src.filter(i => f(i) > 0),
      "collect" -> src.collect { case i if f(i) > 0 => i },
      "tap" -> src.tap(i => f(i): Unit),
      "mapConcat" -> src.mapConcat(i => List(f(i))),
      "scan" -> src.scan(0)((s, i) => s + f(i))
    )

  test("a failure of an operator's function reaches the caller as it was thrown"):
    val boom = Boom()
    for (name, flow) <- failing(boom) do
      val seen = ListBuffer.empty[Int]
      val e = intercept[Boom](Async.blocking(flow.runForeach(seen += _)))
      assert(e eq boom, s"$name: $e")
      assert(!seen.contains(3), s"$name: an element after the failure went on: $seen")

  test("a failure downstream reaches the caller through the stages as it was thrown"):
    val boom = Boom()
    val e = intercept[Boom]:
      Async.blocking:
        Flow(1, 2, 3).map(_ + 1).filter(_ > 0).zipWithIndex.runForeach(_ => throw boom)
    assert(e eq boom, e)

  test("cold: nothing runs before the terminal operation; each run starts over"):
    val probe = FlowProbe(Seq(1, 2, 3))
    val calls = AtomicInteger()
    val f = probe.flow
      .map { i =>
        calls.incrementAndGet(); i * 2
      }
      .filter(_ > 2)
      .tap(_ => calls.incrementAndGet(): Unit)
      .intersperse(0)
    assertEquals((probe.runs.get, calls.get), (0, 0))
    Async.blocking:
      assertEquals(f.runToList(), List(4, 0, 6))
      assertEquals(f.runToList(), List(4, 0, 6))
    assertEquals((probe.runs.get, calls.get), (2, 10))

  test("fused stages run on the caller's fiber and produce nothing ahead of the consumer"):
    val probe = FlowProbe(0 until 50)
    val ahead = ListBuffer.empty[Int]
    val sourceThread = ListBuffer.empty[Thread]
    Async.blocking:
      val caller = Thread.currentThread()
      probe.flow
        .map(_ + 1)
        .tap(_ => sourceThread += Thread.currentThread())
        .filter(_ => true)
        .zipWithIndex
        .runForeach((_, i) => ahead += probe.offered.get - (i.toInt + 1))
      assertEquals(sourceThread.distinct.toList, List(caller))
    assertEquals(ahead.distinct.toList, List(0), "elements produced ahead of the consumer")
