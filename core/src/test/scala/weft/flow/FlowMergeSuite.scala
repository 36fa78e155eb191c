package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import weft.*

/**
 * `merge`, `Flow.merge` and `flatMapMerge`: every element of every source, each source's own
 * order kept, elements interleaved as they come, the end after every source ended.
 */
class FlowMergeSuite extends munit.FunSuite, FlowTesting:

  /** Whether `sub` appears in `all` in its own order. */
  def inOrder[T](all: List[T], sub: List[T]): Boolean =
    all.filter(sub.toSet) == sub

  flowTest("merge: every element of both, each side's order kept"):
    val left = (0 until 300).toList
    val right = (1000 until 1200).toList
    val got = Flow.fromIterable(left).merge(Flow.fromIterable(right)).runToList()
    assertEquals(got.sorted, (left ++ right).sorted)
    assert(inOrder(got, left), "the left side's order was lost")
    assert(inOrder(got, right), "the right side's order was lost")

  flowTest("Flow.merge of four sources, of one, of none"):
    val sources = (0 until 4).map(k => (k * 1000 until k * 1000 + 250).toList)
    val got = Flow.merge(sources.map(Flow.fromIterable)*).runToList()
    assertEquals(got.sorted, sources.flatten.toList.sorted)
    for s <- sources do assert(inOrder(got, s), s"the order of ${s.head}.. was lost")
    assertEquals(Flow.merge(Flow(1, 2, 3)).runToList(), List(1, 2, 3))
    assertEquals(Flow.merge[Int]().runToList(), Nil)
    assertEquals(Flow.merge(Flow.empty[Int], Flow(5), Flow.empty[Int]).runToList(), List(5))

  flowTest("merge interleaves as elements come: one side's element passes while the other waits"):
    // The left side waits until the right side's element came out: merge must not read the
    // sides in turns, nor wait for one to end.
    val rightOut = Promise[Unit]()
    val left = Flow.usingEmit[String] { emit =>
      FlowWait.on(rightOut, "the right side's element passed")
      emit("left")
    }
    val got =
      left.merge(Flow("right")).tap(s => if s == "right" then rightOut.success(())).runToList()
    assertEquals(got, List("right", "left"))

  flowTest("merge ends when the last source ends, not the first"):
    val late = Promise[Unit]()
    val slow = Flow.usingEmit[Int] { emit =>
      FlowWait.on(late, "the fast side's elements passed")
      emit(99)
    }
    val got = Flow(1, 2).merge(slow).tap(i => if i == 2 then late.success(())).runToList()
    assertEquals(got, List(1, 2, 99))

  flowTest("merge: a take downstream cancels every endless source and joins it"):
    val probe = Probe()
    def endless(v: Int) = Flow.usingEmit[Int] { emit =>
      probe.here()
      try while true do emit(v)
      finally probe.finallies.incrementAndGet(): Unit
    }
    val got = Flow.merge(endless(1), endless(2), endless(3)).take(50).runToList()
    assertEquals(got.size, 50)
    assertEquals(probe.finallies.get, probe.threadCount, "a source's finally did not run")
    probe.assertNoneAlive("merge after take")

  flowTest("flatMapMerge: every sub-flow's elements, each sub-flow's order kept"):
    val got = Flow.range(0, 50).flatMapMerge(4)(i => Flow.range(i * 100, i * 100 + 20)).runToList()
    assertEquals(got.sorted, (0 until 50).flatMap(i => i * 100 until i * 100 + 20).toList)
    for i <- 0 until 50 do
      assert(inOrder(got, (i * 100 until i * 100 + 20).toList), s"sub-flow $i's order was lost")

  flowTest("flatMapMerge: at most parallelism sub-flows at once, and that many are reached"):
    for p <- Seq(1, 3) do
      val inside = AtomicInteger()
      val most = AtomicInteger()
      val got = Flow.range(0, 40).flatMapMerge(p) { i =>
        Flow.usingEmit[Int] { emit =>
          most.accumulateAndGet(inside.incrementAndGet(), math.max)
          try
            emit(i)
            sleep(0)
            emit(i)
          finally inside.decrementAndGet(): Unit
        }
      }.runToList()
      assertEquals(got.sorted, (0 until 40).flatMap(i => Seq(i, i)).toList)
      assert(most.get <= p, s"flatMapMerge($p): ${most.get} sub-flows at once")
    val started = AtomicInteger()
    val all = Promise[Unit]()
    val got = Flow.range(0, 3).flatMapMerge(3) { i =>
      Flow.usingEmit[Int] { emit =>
        if started.incrementAndGet() == 3 then all.success(())
        FlowWait.on(all, "3 sub-flows running at once")
        emit(i)
      }
    }.runToList()
    assertEquals(got.sorted, List(0, 1, 2))

  flowTest("flatMapMerge: a later sub-flow's elements pass while an earlier one waits"):
    val secondOut = Promise[Unit]()
    val got = Flow(0, 1).flatMapMerge(2) { i =>
      if i == 0 then
        Flow.usingEmit[Int] { emit =>
          FlowWait.on(secondOut, "the second sub-flow's element passed")
          emit(0)
        }
      else Flow(1)
    }.tap(i => if i == 1 then secondOut.success(())).runToList()
    assertEquals(got, List(1, 0))

  flowTest("flatMapMerge: a failing sub-flow fails the run with its exception"):
    val boom = Boom("sub-flow")
    val probe = Probe()
    assertThrowsExactly(boom, "flatMapMerge"):
      Flow.range(0, 10).flatMapMerge(3) { i =>
        if i == 4 then Flow.failed(boom)
        else
          Flow.usingEmit[Int] { emit =>
            probe.here(); emit(i)
          }
      }.runDrain()
    probe.assertNoneAlive("flatMapMerge after the failure")

  test("bad arguments are refused when the operator is called"):
    val e = intercept[IllegalArgumentException](Flow(1).flatMapMerge(0)(Flow(_)))
    assertEquals(e.getMessage, "flatMapMerge: parallelism must be >= 1, was 0")
    val m = intercept[IllegalArgumentException](Flow(1).merge(null.asInstanceOf[Flow[Int]]))
    assertEquals(m.getMessage, "merge: other must not be null")
