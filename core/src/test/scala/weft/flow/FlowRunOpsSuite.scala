package weft.flow

import java.util.NoSuchElementException
import java.util.concurrent.atomic.AtomicInteger
import scala.collection.mutable.ListBuffer
import scala.util.{Failure, Success, Try}
import weft.*
import weft.channels.ChannelFailedException
import weft.testing.Deadlined

/**
 * The terminal operations: what each returns, that each runs the flow on the calling fiber and
 * returns once the run has ended, that a failure is thrown as it was thrown, and, for
 * `runToChannel`, the fiber that fills the channel in the caller's scope.
 */
class FlowRunOpsSuite extends munit.FunSuite, Deadlined:

  val boom = Boom()
  val failing: Flow[Int] = Flow(1, 2).concat(Flow.failed(boom))

  test("runToList, runFold, runForeach, runToEmit: every element, in order"):
    Async.blocking:
      assertEquals(Flow.range(0, 5).runToList(), List(0, 1, 2, 3, 4))
      assertEquals(Flow("a", "b", "c").runFold(">")(_ + _), ">abc")
      assertEquals(Flow.empty[Int].runFold(7)(_ + _), 7)
      val each = ListBuffer.empty[Int]
      Flow(3, 1, 2).runForeach(each += _)
      assertEquals(each.toList, List(3, 1, 2))
      val emitted = ListBuffer.empty[Int]
      Flow(5, 6).runToEmit(emitted += _)
      assertEquals(emitted.toList, List(5, 6))

  test("runDrain runs the stages for their effects"):
    val seen = AtomicInteger()
    Async.blocking(Flow.range(0, 100).tap(_ => seen.incrementAndGet(): Unit).runDrain())
    assertEquals(seen.get, 100)

  test("runLast and runLastOption"):
    Async.blocking:
      assertEquals(Flow(1, 2, 3).runLast(), 3)
      assertEquals(Flow(1, 2, 3).runLastOption(), Some(3))
      assertEquals(Flow.empty[Int].runLastOption(), None)
      val e = intercept[NoSuchElementException](Flow.empty[Int].runLast())
      assert(e.getMessage.contains("runLast"), e.getMessage)

  test("every terminal operation throws a failure of the run as it was thrown"):
    val ops: Seq[(String, Async ?=> Any)] = Seq(
      "runToList" -> failing.runToList(),
      "runFold" -> failing.runFold(0)(_ + _),
      "runForeach" -> failing.runForeach(_ => ()),
      "runToEmit" -> failing.runToEmit(_ => ()),
      "runDrain" -> failing.runDrain(),
      "runLast" -> failing.runLast(),
      "runLastOption" -> failing.runLastOption()
    )
    for (name, op) <- ops do
      val r = Try(Async.blocking(op))
      assert(r.failed.toOption.exists(_ eq boom), s"$name: $r")

  test("a failure of the terminal operation's own function is thrown as is"):
    val e1 = intercept[Boom](Async.blocking(Flow(1, 2).runFold(0)((_, _) => throw boom)))
    val e2 = intercept[Boom](Async.blocking(Flow(1, 2).runForeach(_ => throw boom)))
    val e3 = intercept[Boom](Async.blocking(Flow(1, 2).runToEmit(_ => throw boom)))
    assert((e1 eq boom) && (e2 eq boom) && (e3 eq boom))

  test("the terminal operations run the flow on the calling fiber, and each run starts over"):
    val probe = FlowProbe(Seq(1, 2))
    val threads = ListBuffer.empty[Thread]
    val f = probe.flow.tap(_ => threads += Thread.currentThread())
    Async.blocking:
      f.runToList()
      f.runFold(0)(_ + _)
      f.runForeach(_ => ())
      f.runToEmit(_ => ())
      f.runDrain()
      f.runLast()
      f.runLastOption()
      assertEquals(threads.distinct.toList, List(Thread.currentThread()))
    assertEquals(probe.runs.get, 7)
    assertEquals(probe.finished.get, 7)

  test("runToChannel: the elements, then the channel closed"):
    Async.blocking:
      assertEquals(Flow.range(0, 50).runToChannel().toList(), (0 until 50).toList)
      assertEquals(Flow.range(0, 5).runToChannel(0).toList(), (0 until 5).toList, "rendezvous")
      assertEquals(Flow.empty[Int].runToChannel(1).toList(), Nil)

  test("runToChannel: a failure closes the channel with error(cause), cause as thrown"):
    Async.blocking:
      // a rendezvous: error(cause) drops what a buffer still holds, so hand each element over
      val ch = failing.runToChannel(0)
      assertEquals(ch.read(), Success(1))
      assertEquals(ch.read(), Success(2))
      ch.read() match
        case Failure(e: ChannelFailedException) => assert(e.getCause eq boom, e.getCause)
        case other                              => fail(s"the channel's end: $other")

  test("runToChannel: a fiber of the caller's scope, cold until called, back-pressured"):
    val probe = FlowProbe(0 until 20)
    val f = probe.flow
    assertEquals(probe.runs.get, 0)
    Async.blocking:
      val ch = f.runToChannel(2)
      while probe.offered.get < 3 do sleep(1)
      sleep(50) // time for a producer that ignores the capacity to run ahead
      assertEquals(probe.emitted.get, 2, "elements sent into a channel of 2 nobody reads")
      assertNotEquals(probe.aliveThreads, Nil, "the producing fiber")
      assertEquals(ch.toList(), (0 until 20).toList)
    assertEquals(probe.aliveThreads, Nil)

  test("runToChannel: the producer is cancelled and joined when the caller's scope ends"):
    val probe = FlowProbe.blocking(1, 2)
    Async.blocking:
      val ch = probe.flow.runToChannel(0)
      assertEquals(ch.read(), Success(1))
      // the scope ends with the producer still in its source: it is cancelled and joined
    assertEquals(probe.finished.get, 1, "the source's finally")
    assertEquals(probe.aliveThreads, Nil)
    assertEquals(probe.emitted.get, 1)

  test("a terminal operation returns only after the run's boundary fibers ended"):
    val probe = FlowProbe(0 until 100)
    Async.blocking:
      assertEquals(probe.flow.buffer(4).map(_ + 1).runFold(0)(_ + _), (1 to 100).sum)
      assertEquals(probe.aliveThreads, Nil, "the buffer's fiber outlived runFold")
      assertEquals(probe.finished.get, 1)

  test("a future started by a usingEmit body has ended when the terminal operation returns"):
    // the run is a nested scope: its futures are cancelled and joined when it ends
    val ended = java.util.concurrent.atomic.AtomicBoolean(false)
    Async.blocking:
      val got = Flow.usingEmit[Int] { emit =>
        val started = java.util.concurrent.CountDownLatch(1)
        Future:
          started.countDown()
          try weft.testing.UntilCancelled()
          finally ended.set(true)
        weft.testing.Waits.latch(started, "the body's future")
        emit(1)
      }.runToList()
      assertEquals(got, List(1))
      assert(ended.get, "a future of the run outlived runToList")

  test("cancelling the caller of each terminal operation midway stops the run"):
    val ops: Seq[(String, Flow[Int] => Async ?=> Any)] = Seq(
      "runToList" -> (_.runToList()),
      "runFold" -> (_.runFold(0)(_ + _)),
      "runForeach" -> (_.runForeach(_ => ())),
      "runToEmit" -> (_.runToEmit(_ => ())),
      "runDrain" -> (_.runDrain()),
      "runLast" -> (_.runLast()),
      "runLastOption" -> (_.runLastOption()),
      "runToChannel" -> (_.runToChannel(0).toList())
    )
    for (name, op) <- ops do
      val probe = FlowProbe.blocking(1, 2)
      val r = FlowProbe.cancelMidway(probe)(op(probe.flow))
      assert(FlowProbe.isCancelled(r), s"$name: $r")
      assertEquals(probe.finished.get, 1, s"$name: the source's finally")
      assertEquals(probe.aliveThreads, Nil, s"$name: threads left")

/** [[FlowRunOpsSuite]], every run entered from a virtual thread. */
class FlowRunOpsOnVirtualThreadSuite extends FlowRunOpsSuite, OnVirtualThread
