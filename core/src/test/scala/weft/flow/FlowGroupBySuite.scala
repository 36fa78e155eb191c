package weft.flow

import java.util.concurrent.ConcurrentLinkedQueue
import scala.jdk.CollectionConverters.*
import weft.*

/**
 * `groupBy(parallelism, key)(child)`: one sub-flow per open key, at most `parallelism` open, the
 * least recently used completed first, a key reopened after it was completed, a child that
 * stops early.
 */
class FlowGroupBySuite extends munit.FunSuite, FlowTesting:

  flowTest("every element goes to its key's child, each key's order kept"):
    val got = Flow.range(0, 300).groupBy(3, _ % 3)((k, f) => f.map(v => (k, v))).runToList()
    assertEquals(got.map(_._2).sorted, (0 until 300).toList)
    for k <- 0 until 3 do
      assertEquals(got.filter(_._1 == k).map(_._2), (0 until 300).filter(_ % 3 == k).toList)

  flowTest("a child transforms its sub-flow: one fold per key"):
    val got = Flow.range(0, 100).groupBy(4, _ % 4) { (k, f) =>
      Flow.usingEmit[(Int, Int)](emit => emit((k, f.runFold(0)(_ + _))))
    }.runToList()
    assertEquals(got.sorted, (0 until 4).map(k => (k, (0 until 100).filter(_ % 4 == k).sum)).toList)

  flowTest("at parallelism open keys, a new key completes the least recently used one"):
    // a1 b1 a2 c1 b2 a3 with 2 open keys: a2 makes b the least recently used, so c1 completes
    // b (not a, the first opened); b2 then completes a, and a3 completes c. Each child records
    // the elements of its own sub-flow; the child function runs when a key (re)opens.
    val opened = ConcurrentLinkedQueue[String]()
    val subFlows = ConcurrentLinkedQueue[(String, List[String])]()
    val elements = List("a1", "b1", "a2", "c1", "b2", "a3")
    val out = Flow.fromIterable(elements).groupBy(2, _.take(1)) { (k, f) =>
      opened.add(k)
      Flow.usingEmit[String] { emit =>
        val mine = f.tap(emit(_)).runToList()
        subFlows.add((k, mine))
      }
    }.runToList()
    assertEquals(out.sorted, elements.sorted)
    assertEquals(opened.asScala.toList, List("a", "b", "c", "b", "a"))
    assertEquals(
      subFlows.asScala.toList.sortBy(_.toString),
      List(
        "a" -> List("a1", "a2"),
        "a" -> List("a3"),
        "b" -> List("b1"),
        "b" -> List("b2"),
        "c" -> List("c1")
      )
        .sortBy(_.toString)
    )

  flowTest("a completed key's child ends while the others go on"):
    // key 0 is completed (LRU) when key 2 opens; its child must end before the upstream does:
    // the upstream waits for that end before emitting more.
    val zeroEnded = Promise[Unit]()
    val upstream = Flow.usingEmit[Int] { emit =>
      emit(0); emit(1); emit(2)
      FlowWait.on(zeroEnded, "the child of the completed key ended")
      emit(3)
    }
    val got = upstream.groupBy(2, identity)((k, f) =>
      f.onComplete(if k == 0 then zeroEnded.success(()))
    ).runToList()
    assertEquals(got.sorted, List(0, 1, 2, 3))

  flowTest("a child that stops early does not hang the flow"):
    val probe = Probe()
    val got =
      Flow.range(0, 2000).tap(_ => probe.here()).groupBy(3, _ % 3)((_, f) => f.take(1)).runToList()
    assert(got.toSet.subsetOf((0 until 2000).toSet), got.toString)
    assertEquals(got.distinct, got, "an element came out twice")
    assert(Set(0, 1, 2).subsetOf(got.toSet), s"a key's first element was lost: ${got.take(10)}")
    probe.assertNoneAlive("groupBy after early children")
    // a single key, far more elements than its channel holds: the routing fiber must not wait
    // for ever on the channel of a child that ended
    val one = Flow.range(0, 5000).groupBy(1, _ => 0)((_, f) => f.take(2)).runToList()
    assertEquals(one.take(2), List(0, 1))
    assertEquals(one.distinct, one)

  flowTest("a child that ignores its sub-flow"):
    val got = Flow.range(0, 500).groupBy(2, _ % 5)((k, _) => Flow(k)).runToList()
    assert(got.toSet == (0 until 5).toSet, got.toString)

  flowTest("a failing child fails the run with its exception and stops every other"):
    val boom = Boom("child")
    val probe = Probe()
    assertThrowsExactly(boom, "groupBy"):
      Flow.range(0, 1000).groupBy(3, _ % 3) { (k, f) =>
        f.tap(v =>
          probe.here(); if k == 2 && v > 50 then throw boom
        )
      }.runDrain()
    probe.assertNoneAlive("groupBy after the failure")

  flowTest("a failing key function fails the run with its exception"):
    val boom = Boom("key")
    assertThrowsExactly(boom, "groupBy key"):
      Flow.range(0, 100).groupBy(2, i => if i == 30 then throw boom else i % 2)((_, f) => f)
        .runDrain()

  test("bad arguments are refused when the operator is called"):
    val e = intercept[IllegalArgumentException](Flow(1).groupBy(0, identity)((_, f) => f))
    assertEquals(e.getMessage, "groupBy: parallelism must be >= 1, was 0")
