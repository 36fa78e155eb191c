package weft.flow

import scala.collection.mutable.ListBuffer
import weft.*
import weft.testing.Deadlined

/**
 * `grouped(n)`: groups of `n` in order, the last one smaller and never empty; a group goes on
 * as soon as it is full (not held back to the end); each run groups anew; a failure reaches the
 * caller as thrown.
 */
class FlowGroupedSuite extends munit.FunSuite, Deadlined:

  test("grouped: groups of n in order, the last smaller, never an empty one"):
    Async.blocking:
      assertEquals(
        Flow.range(0, 7).grouped(3).runToList(),
        List(Seq(0, 1, 2), Seq(3, 4, 5), Seq(6))
      )
      assertEquals(Flow.range(0, 6).grouped(3).runToList(), List(Seq(0, 1, 2), Seq(3, 4, 5)))
      assertEquals(Flow.range(0, 3).grouped(1).runToList(), List(Seq(0), Seq(1), Seq(2)))
      assertEquals(Flow.range(0, 2).grouped(5).runToList(), List(Seq(0, 1)))
      assertEquals(Flow.empty[Int].grouped(2).runToList(), Nil)

  test("grouped: a full group goes on at once, before the next element is produced"):
    val probe = FlowProbe(0 until 10)
    val producedAtGroup = ListBuffer.empty[Int]
    Async.blocking(probe.flow.grouped(4).runForeach(_ => producedAtGroup += probe.offered.get))
    assertEquals(producedAtGroup.toList, List(4, 8, 10))

  test("grouped: the groups do not share state across groups or runs"):
    Async.blocking:
      val f = Flow.range(0, 5).grouped(2)
      val first = f.runToList()
      val second = f.runToList()
      assertEquals(first, List(Seq(0, 1), Seq(2, 3), Seq(4)))
      assertEquals(second, first)

  test("grouped over an endless flow, stopped downstream; the upstream stops"):
    val probe = FlowProbe(0 until 1000)
    Async.blocking:
      assertEquals(probe.flow.grouped(3).take(2).runToList(), List(Seq(0, 1, 2), Seq(3, 4, 5)))
      assertEquals(Flow.iterate(0)(_ + 1).grouped(2).take(1).runToList(), List(Seq(0, 1)))
    assertEquals(probe.offered.get, 6)
    assertEquals(probe.finished.get, 1)

  test("grouped: an upstream failure reaches the caller as is; no partial group after it"):
    val boom = Boom()
    val seen = ListBuffer.empty[Seq[Int]]
    val e = intercept[Boom]:
      Async.blocking(Flow(1, 2, 3).concat(Flow.failed(boom)).grouped(2).runForeach(seen += _))
    assert(e eq boom, e)
    assertEquals(seen.toList, List(Seq(1, 2)))

  test("grouped: a failure downstream on a group reaches the caller as is"):
    val boom = Boom()
    val e =
      intercept[Boom](Async.blocking(Flow.range(0, 10).grouped(3).runForeach(_ => throw boom)))
    assert(e eq boom, e)

  test("grouped: a failure downstream on the last, partial group reaches the caller as is"):
    // the partial group is emitted after the upstream ended, outside the upstream's stages
    val boom = Boom()
    val e = intercept[Boom]:
      Async.blocking(Flow.range(0, 5).grouped(2).runForeach(g => if g.size == 1 then throw boom))
    assert(e eq boom, e)
