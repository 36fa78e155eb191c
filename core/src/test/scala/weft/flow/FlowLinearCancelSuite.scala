package weft.flow

import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.{AtomicBoolean, AtomicInteger, AtomicLong}
import scala.concurrent.duration.*
import weft.*
import weft.channels.BufferedChannel
import weft.testing.{Deadlined, Waits}
import FlowProbe.{cancelMidway, isCancelled}

/**
 * Cancelling the caller midway through a run of fused stages: the run ends with the
 * cancellation, the source's `finally` has run, no thread of the run is left, and `recover`,
 * `retry`, `onError` and `onDone` never treat the cancellation as a failure or an end.
 */
class FlowLinearCancelSuite extends munit.FunSuite, Deadlined:

  /** Every fused operator, applied to a flow of ints. */
  val linear: Seq[(String, Flow[Int] => Flow[Any])] = Seq(
    "map" -> (_.map(_ + 1)),
    "filter" -> (_.filter(_ => true)),
    "collect" -> (_.collect { case i => i }),
    "tap" -> (_.tap(_ => ())),
    "zipWithIndex" -> (_.zipWithIndex),
    "mapConcat" -> (_.mapConcat(i => List(i, i))),
    "flatMap" -> (_.flatMap(i => Flow(i))),
    "scan" -> (_.scan(0)(_ + _)),
    "take" -> (_.take(100)),
    "drop" -> (_.drop(1)),
    "takeWhile" -> (_.takeWhile(_ < 100)),
    "dropWhile" -> (_.dropWhile(_ < 2)),
    "grouped" -> (_.grouped(2)),
    "intersperse" -> (_.intersperse(0)),
    "concat" -> (_.concat(Flow(9))),
    "alsoTo" -> (_.alsoTo(BufferedChannel[Int](100))),
    "onComplete" -> (_.onComplete(())),
    "onDone" -> (_.onDone(())),
    "onError" -> (_.onError(_ => ())),
    "recover" -> (_.recover { case _ => -1 }),
    "retry" -> (_.retry(Retry.immediate(3)))
  )

  for (name, op) <- linear do
    test(s"$name: cancelling the caller midway ends the run, runs finally, leaves no thread"):
      val probe = FlowProbe.blocking(1, 2, 3)
      val r = cancelMidway(probe)(op(probe.flow).runDrain())
      assert(isCancelled(r), r)
      assertEquals(probe.finished.get, 1, "the source's finally")
      assertEquals(probe.runs.get, 1, "runs of the source")
      assertEquals(probe.aliveThreads, Nil, "threads of the run left alive")

  test("a sub-flow of flatMap waiting when the caller is cancelled is stopped"):
    val probe = FlowProbe.blocking(1)
    val outerDone = AtomicBoolean(false)
    val outer = Flow(1, 2).onComplete(outerDone.set(true))
    val r = cancelMidway(probe)(outer.flatMap(_ => probe.flow).runToList())
    assert(isCancelled(r), r)
    assertEquals(probe.finished.get, 1)
    assert(outerDone.get, "the outer flow's onComplete")
    assertEquals(probe.runs.get, 1, "the second element's sub-flow never started")

  test("cancellation: onComplete runs, onDone and onError do not, recover does not recover"):
    val probe = FlowProbe.blocking(1, 2)
    val completed = AtomicInteger()
    val done = AtomicInteger()
    val errors = AtomicInteger()
    val recovered = AtomicInteger()
    val r = cancelMidway(probe):
      probe.flow
        .onComplete(completed.incrementAndGet(): Unit)
        .onDone(done.incrementAndGet(): Unit)
        .onError(_ => errors.incrementAndGet(): Unit)
        .recover { case _ => recovered.incrementAndGet() }
        .runToList()
    assert(isCancelled(r), r)
    assertEquals(
      (completed.get, done.get, errors.get, recovered.get),
      (1, 0, 0, 0),
      "(onComplete, onDone, onError, recover) calls"
    )

  test("cancellation is not retried: the source ran once"):
    val probe = FlowProbe.blocking(1)
    val r = cancelMidway(probe)(probe.flow.retry(Retry.immediate(5)).runDrain())
    assert(isCancelled(r), r)
    assertEquals(probe.runs.get, 1)

  test("a cancel during retry's pause stops the retries"):
    val failedOnce = CountDownLatch(1)
    val runs = AtomicInteger()
    val failing = Flow.usingEmit[Int] { emit =>
      runs.incrementAndGet()
      emit(1)
      failedOnce.countDown()
      throw Boom()
    }
    val policy = Retry(5, delay = Retry.Delay.Constant(1.hour))
    val r = Async.blocking:
      val f = Future(failing.retry(policy).runToList())
      Waits.latch(failedOnce, "the first failure")
      f.cancel()
      Waits.within(Future(f.result), "the cancelled run's result")
    assert(isCancelled(r), r)
    assertEquals(runs.get, 1)

  test("alsoTo: the side channel is closed when the run is cancelled"):
    val probe = FlowProbe.blocking(1, 2)
    val sink = BufferedChannel[Int](10)
    val r = cancelMidway(probe)(probe.flow.alsoTo(sink).runDrain())
    assert(isCancelled(r), r)
    // closed (done or failed): a reader of everything it holds is not left waiting
    val rest = Async.blocking:
      Waits.within(Future(scala.util.Try(sink.toList())), "the side channel's end")
    assert(rest.isFailure || rest.toOption == Some(List(1, 2)), rest)

  /** Sources that never wait: each must check for cancellation as it goes. */
  val neverWaiting: Seq[(String, Flow[Long])] = Seq(
    "iterate" -> Flow.iterate(0L)(_ + 1),
    "repeat" -> Flow.repeat(1L),
    "unfold" -> Flow.unfold(0L)(s => Some((s, s + 1))),
    "fromIterator" -> Flow.fromIterator(Iterator.from(0).map(_.toLong)),
    "range" -> Flow.range(0, Int.MaxValue).map(_.toLong),
    // a source that is always ready: awaiting it never suspends
    "fromSource" -> Flow.fromSource(Future.successful(1L)).map(_.get),
    // one element whose collection never waits: the stage itself must notice the cancel
    "mapConcat" -> Flow(1).mapConcat(_ => Iterator.range(0, Int.MaxValue)).map(_.toLong)
  )

  /**
   * Where each of them is cut: a run that misses the cancel ends here by itself, fails the test
   * in a few seconds and frees its carrier thread (a virtual thread that never waits holds one,
   * which would starve the suites after it), while a run that sees the cancel stops within a
   * few hundred elements of 10,000.
   */
  val bound: Long = 50_000_000L

  for (name, source) <- neverWaiting do
    test(s"$name: a fused flow that never waits stops when its caller is cancelled"):
      val seen = AtomicLong()
      val running = CountDownLatch(1)
      val stopped = CountDownLatch(1)
      val r = Async.blocking:
        val f = Future:
          source
            .take(bound)
            .map(_ * 2)
            .filter(_ >= 0)
            .tap(_ => if seen.incrementAndGet() == 10_000 then running.countDown())
            .onComplete(stopped.countDown())
            .runDrain()
        Waits.latch(running, s"$name: 10,000 elements")
        f.cancel()
        Waits.latch(stopped, s"$name: the run stopped after its cancel")
        f.result
      assert(isCancelled(r), r)
      assert(seen.get < bound, s"$name ran to its end, missing the cancel: ${seen.get} elements")

/** [[FlowLinearCancelSuite]], every run entered from a virtual thread. */
class FlowLinearCancelOnVirtualThreadSuite extends FlowLinearCancelSuite, OnVirtualThread
