package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import scala.collection.mutable.ListBuffer
import weft.*
import weft.testing.Deadlined

/**
 * `flatMap` (and `flatMapConcat`): each element's sub-flow runs to its end before the next
 * element is taken, on the same fiber; failures of `f`, of a sub-flow and of a stage downstream
 * reach the caller as thrown; an early stop downstream stops both the sub-flow and the outer
 * flow.
 */
class FlowFlatMapSuite extends munit.FunSuite, Deadlined:

  test("flatMap: each sub-flow's elements, the sub-flows in the order of their elements"):
    Async.blocking:
      assertEquals(
        Flow(1, 2, 3).flatMap(i => Flow.range(0, i).map(j => (i, j))).runToList(),
        List((1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2))
      )
      assertEquals(Flow(1, 2).flatMapConcat(i => Flow(i, i * 10)).runToList(), List(1, 10, 2, 20))
      assertEquals(Flow(1, 2, 3).flatMap(_ => Flow.empty[Int]).runToList(), Nil)
      assertEquals(
        Flow(0, 2, 0).flatMap(i => Flow.fromIterable(List.fill(i)(i))).runToList(),
        List(2, 2)
      )

  test("flatMap: a sub-flow runs to its end before the next element is taken"):
    val events = ListBuffer.empty[String]
    val outer = Flow.usingEmit[Int] { emit =>
      for i <- 1 to 2 do
        events += s"outer $i"
        emit(i)
    }
    def sub(i: Int): Flow[Int] =
      Flow.usingEmit[Int] { emit =>
        events += s"start $i"
        emit(i)
      }.onComplete(events += s"end $i")
    Async.blocking(outer.flatMap(sub).runForeach(i => events += s"got $i"))
    assertEquals(
      events.toList,
      List("outer 1", "start 1", "got 1", "end 1", "outer 2", "start 2", "got 2", "end 2")
    )

  test("flatMap: the sub-flows run on the caller's fiber"):
    Async.blocking:
      val caller = Thread.currentThread()
      val threads = Flow(1, 2).flatMap(_ =>
        Flow.usingEmit[Thread](emit => emit(Thread.currentThread()))
      ).runToList()
      assertEquals(threads, List(caller, caller))

  test("flatMap is cold: f is called only in a run, once per element per run"):
    val calls = AtomicInteger()
    val f = Flow(1, 2).flatMap { i =>
      calls.incrementAndGet(); Flow(i)
    }
    assertEquals(calls.get, 0)
    Async.blocking:
      assertEquals(f.runToList(), List(1, 2))
      assertEquals(f.runToList(), List(1, 2))
    assertEquals(calls.get, 4)

  test("flatMap: a failure of f, of a sub-flow, or downstream reaches the caller as is"):
    val boom = Boom()
    val cases: Seq[(String, Flow[Int])] = Seq(
      "f" -> Flow(1, 2).flatMap(i => if i == 2 then throw boom else Flow(i)),
      "sub-flow" -> Flow(1, 2).flatMap(i => Flow(i).concat(Flow.failed(boom))),
      "downstream" -> Flow(1, 2).flatMap(i => Flow(i, i)).map(i => if i == 2 then throw boom else i)
    )
    for (name, flow) <- cases do
      val seen = ListBuffer.empty[Int]
      val e = intercept[Boom](Async.blocking(flow.runForeach(seen += _)))
      assert(e eq boom, s"$name: $e")
      assert(!seen.contains(2) || name == "sub-flow", s"$name: $seen")

  test("flatMap: a failed sub-flow stops the outer flow; both finallys run"):
    val boom = Boom()
    val outer = FlowProbe(Seq(1, 2, 3))
    val subRuns = AtomicInteger()
    val e = intercept[Boom]:
      Async.blocking:
        outer.flow.flatMap { _ =>
          subRuns.incrementAndGet()
          Flow.failed[Int](boom)
        }.runDrain()
    assert(e eq boom, e)
    assertEquals(subRuns.get, 1)
    assertEquals((outer.offered.get, outer.finished.get), (1, 1))

  test("flatMap with take downstream: the sub-flow and the outer flow both stop at once"):
    val outer = FlowProbe(0 until 100)
    val subs = ListBuffer.empty[FlowProbe[Int]]
    Async.blocking:
      val got = outer.flow
        .flatMap { i =>
          val p = FlowProbe(Seq(i * 10, i * 10 + 1, i * 10 + 2))
          subs += p
          p.flow
        }
        .take(4)
        .runToList()
      assertEquals(got, List(0, 1, 2, 10))
    assertEquals(outer.offered.get, 2, "outer elements taken")
    assertEquals(subs.map(_.offered.get).toList, List(3, 1), "sub-flow elements produced")
    assertEquals(subs.map(_.finished.get).toList, List(1, 1), "sub-flows' finally")
    assertEquals(outer.finished.get, 1)

  test("flatMap: recover and retry inside a sub-flow act on that sub-flow only"):
    val boom = Boom()
    val runs = AtomicInteger()
    Async.blocking:
      val got = Flow(1, 2)
        .flatMap(i => Flow(i).concat(Flow.failed(boom)).recover { case _: Boom => -i })
        .runToList()
      assertEquals(got, List(1, -1, 2, -2))
      val retried = Flow(1, 2)
        .flatMap { i =>
          Flow.usingEmit[Int] { emit =>
            if runs.incrementAndGet() % 2 == 1 then throw Boom() else emit(i)
          }.retry(Retry.immediate(1))
        }
        .runToList()
      assertEquals(retried, List(1, 2))
    assertEquals(runs.get, 4)

  test("flatMap of an endless outer flow, stopped downstream"):
    Async.blocking:
      assertEquals(
        Flow.iterate(0)(_ + 1).flatMap(i => Flow(i, -i)).take(5).runToList(),
        List(0, 0, 1, -1, 2)
      )
