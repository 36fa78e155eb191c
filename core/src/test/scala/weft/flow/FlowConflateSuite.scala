package weft.flow

import weft.*

/**
 * `conflate(f)`: while the consumer is busy, upstream goes on emitting and what it emits is
 * merged into one element, handed over when the consumer takes the next one. The orders are
 * forced with promises, without time.
 */
class FlowConflateSuite extends munit.FunSuite, FlowTesting:

  /**
   * Emits `first`, waits until the consumer got it, emits `rest` while the consumer is blocked,
   * then lets the consumer go on: the run's elements.
   */
  def whileBlocked(first: Int, rest: Seq[Int], f: (Int, Int) => Int)(using Async): List[Int] =
    val consumerHasFirst = Promise[Unit]()
    val restEmitted = Promise[Unit]()
    val upstream = Flow.usingEmit[Int] { emit =>
      emit(first)
      FlowWait.on(consumerHasFirst, "the consumer took the first element")
      for x <- rest do emit(x)
      restEmitted.success(())
    }
    upstream.conflate(f).map { x =>
      if x == first && !consumerHasFirst.isCompleted then
        consumerHasFirst.success(())
        // upstream must get through every emit while this stage waits: a conflate that made it
        // wait would leave this promise uncompleted
        FlowWait.on(restEmitted, "upstream emitted everything while the consumer was blocked")
      x
    }.runToList()

  flowTest("what upstream emits while the consumer is blocked is merged into one element"):
    assertEquals(whileBlocked(1, Seq(2, 3, 4, 5), _ + _), List(1, 14))

  flowTest("keep the latest"):
    assertEquals(whileBlocked(1, Seq(2, 3, 4, 5), (_, newer) => newer), List(1, 5))

  flowTest("the merge function gets (older, newer), in upstream order"):
    val got = whileBlocked(0, Seq(1, 2, 3), (a, b) => a * 10 + b)
    assertEquals(got, List(0, 123))

  flowTest("nothing to merge: a single element waiting is handed over as it is"):
    assertEquals(whileBlocked(1, Seq(7), _ + _), List(1, 7))
    assertEquals(whileBlocked(1, Nil, _ + _), List(1))

  flowTest("a consumer that keeps up gets the elements unmerged, in order"):
    // each element is emitted only once the consumer has taken the one before
    val took = Vector.fill(20)(Promise[Unit]())
    val upstream = Flow.usingEmit[Int] { emit =>
      for i <- 0 until 20 do
        emit(i)
        FlowWait.on(took(i), s"element $i taken")
    }
    val got = upstream.conflate[Int](_ + _).tap(i => took(i).success(())).runToList()
    assertEquals(got, (0 until 20).toList)

  flowTest("merging keeps every element's share: sums are conserved"):
    val got = Flow.range(0, 5000).map(_.toLong).conflate[Long](_ + _).map { s =>
      sleep(0); s
    }.runToList()
    assertEquals(got.sum, (0 until 5000).map(_.toLong).sum)
    assert(got.nonEmpty)

  flowTest("an upstream failure fails the run with its exception"):
    val boom = Boom("upstream")
    assertThrowsExactly(boom, "conflate"):
      Flow.usingEmit[Int] { emit =>
        emit(1); throw boom
      }.conflate[Int](_ + _).runDrain()

  flowTest("a failing merge function fails the run with its exception"):
    val boom = Boom("merge")
    assertThrowsExactly(boom, "conflate f"):
      whileBlocked(1, Seq(2, 3), (_, _) => throw boom): Unit

  flowTest("a take downstream stops an endless upstream"):
    val probe = Probe()
    val got = Flow.usingEmit[Int] { emit =>
      probe.here()
      try while true do emit(1)
      finally probe.finallies.incrementAndGet(): Unit
    }.conflate[Int](_ + _).take(5).runToList()
    assertEquals(got.size, 5)
    assertEquals(probe.finallies.get, 1)
    probe.assertNoneAlive("conflate after take")

  test("a missing merge function is refused when the operator is called"):
    val e = intercept[IllegalArgumentException](Flow(1).conflate[Int](null))
    assertEquals(e.getMessage, "conflate: f must not be null")
