package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import scala.collection.mutable.ListBuffer
import weft.*
import weft.testing.Deadlined

/**
 * `take`, `drop`, `takeWhile`, `dropWhile`: their values, and the early stop of `take` and
 * `takeWhile`: the upstream stops right after the last element wanted, its `finally` and
 * `onComplete` run, and nothing is left running.
 */
class FlowTakeSuite extends munit.FunSuite, Deadlined:

  test("take: the first n elements, in order"):
    Async.blocking:
      assertEquals(Flow.range(0, 10).take(3).runToList(), List(0, 1, 2))
      assertEquals(Flow.range(0, 3).take(10).runToList(), List(0, 1, 2))
      assertEquals(Flow.range(0, 3).take(3).runToList(), List(0, 1, 2))
      assertEquals(Flow.iterate(1)(_ * 2).take(5).runToList(), List(1, 2, 4, 8, 16))

  test("take(0) is empty and never runs its upstream"):
    val probe = FlowProbe(Seq(1, 2))
    Async.blocking(assertEquals(probe.flow.take(0).runToList(), Nil))
    assertEquals(probe.runs.get, 0)

  test("take: the upstream stops right after the n-th element and its finally runs"):
    val probe = FlowProbe(0 until 100)
    val completed = AtomicInteger()
    Async.blocking:
      val got = probe.flow.onComplete(completed.incrementAndGet(): Unit).take(3).runToList()
      assertEquals(got, List(0, 1, 2))
    assertEquals(probe.offered.get, 3, "elements the upstream produced")
    assertEquals(probe.finished.get, 1, "the upstream's finally")
    assertEquals(completed.get, 1, "onComplete upstream of take")
    assertEquals(probe.aliveThreads, Nil)

  test("take: a stop from one take is not caught by another"):
    Async.blocking:
      assertEquals(Flow.range(0, 100).take(5).take(3).runToList(), List(0, 1, 2))
      assertEquals(Flow.range(0, 100).take(3).take(5).runToList(), List(0, 1, 2))
      val inner = Flow.range(0, 10).flatMap(i => Flow.range(0, 100).take(2).map(j => (i, j)))
      assertEquals(inner.take(3).runToList(), List((0, 0), (0, 1), (1, 0)))
      assertEquals(inner.runToList().size, 20, "the inner take stops only its sub-flow")

  test("take after a boundary: the upstream fiber is stopped and joined"):
    val probe = FlowProbe(0 until 1000)
    Async.blocking:
      assertEquals(probe.flow.buffer(2).take(3).runToList(), List(0, 1, 2))
    assertEquals(probe.finished.get, 1)
    assertEquals(probe.aliveThreads, Nil, "the boundary's fiber")
    assert(probe.offered.get <= 3 + 2 + 1, s"produced ${probe.offered.get}")

  test("take is cold: each run takes anew"):
    val probe = FlowProbe(0 until 10)
    val f = probe.flow.take(2)
    assertEquals(probe.runs.get, 0, "nothing runs before a terminal operation")
    Async.blocking:
      assertEquals(f.runToList(), List(0, 1))
      assertEquals(f.runToList(), List(0, 1))
    assertEquals(probe.runs.get, 2)

  test("take: a failure before the n-th element reaches the caller as it was thrown"):
    val boom = Boom()
    val e = intercept[Boom](Async.blocking(Flow(1, 2).concat(Flow.failed(boom)).take(5).runDrain()))
    assert(e eq boom, e)

  test("drop: all elements but the first n"):
    Async.blocking:
      assertEquals(Flow.range(0, 6).drop(2).runToList(), List(2, 3, 4, 5))
      assertEquals(Flow.range(0, 3).drop(0).runToList(), List(0, 1, 2))
      assertEquals(Flow.range(0, 3).drop(5).runToList(), Nil)
      val f = Flow.range(0, 4).drop(2)
      assertEquals((f.runToList(), f.runToList()), (List(2, 3), List(2, 3)), "each run drops anew")

  test("takeWhile: the elements while p holds, upstream stopped at the first that fails it"):
    val probe = FlowProbe(Seq(1, 2, 3, 10, 4, 5))
    Async.blocking:
      assertEquals(probe.flow.takeWhile(_ < 5).runToList(), List(1, 2, 3))
      assertEquals(probe.offered.get, 4, "the upstream stopped at 10")
      assertEquals(
        probe.flow.takeWhile(_ < 5, includeFirstFailing = true).runToList(),
        List(1, 2, 3, 10)
      )
      assertEquals(probe.flow.takeWhile(_ => true).runToList(), List(1, 2, 3, 10, 4, 5))
      assertEquals(probe.flow.takeWhile(_ > 100).runToList(), Nil)
    assertEquals(probe.finished.get, 4)
    assertEquals(probe.aliveThreads, Nil)

  test("takeWhile: a failure of p reaches the caller as it was thrown"):
    val boom = Boom()
    val e = intercept[Boom]:
      Async.blocking(Flow(1, 2, 3).takeWhile(i => if i == 2 then throw boom else true).runDrain())
    assert(e eq boom, e)

  test("dropWhile: the elements from the first that fails p on, later matches kept"):
    val seen = ListBuffer.empty[Int]
    Async.blocking:
      val f = Flow(1, 2, 5, 1, 2).tap(seen += _).dropWhile(_ < 3)
      assertEquals(f.runToList(), List(5, 1, 2))
      assertEquals(f.runToList(), List(5, 1, 2), "each run drops anew")
      assertEquals(Flow(1, 2).dropWhile(_ < 3).runToList(), Nil)
    assertEquals(seen.toList, List(1, 2, 5, 1, 2, 1, 2, 5, 1, 2), "every element was read")

  test("dropWhile: a failure of p reaches the caller as it was thrown"):
    val boom = Boom()
    val e = intercept[Boom](Async.blocking(Flow(1, 2).dropWhile(_ => throw boom).runDrain()))
    assert(e eq boom, e)

/** [[FlowTakeSuite]], every run entered from a virtual thread. */
class FlowTakeOnVirtualThreadSuite extends FlowTakeSuite, OnVirtualThread
