package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import scala.collection.mutable.ListBuffer
import scala.util.{Failure, Try}
import weft.*
import weft.channels.{BufferedChannel, ChannelFailedException}
import weft.testing.{Deadlined, Waits}

/**
 * The operators on how a run ends: `alsoTo`, `onComplete`, `onDone`, `onError`, `recover` and
 * `retry`. `recover` and `retry` act only on their upstream's failures: never on a failure of a
 * stage downstream of them, never on an early stop, never on a cancellation (that last one is in
 * [[FlowLinearCancelSuite]]).
 */
class FlowLifecycleSuite extends munit.FunSuite, Deadlined:

  test("alsoTo: every element to the side channel too, in order; closed at the end"):
    Async.blocking:
      val sink = BufferedChannel[Int](10)
      assertEquals(Flow(1, 2, 3).alsoTo(sink).map(_ * 10).runToList(), List(10, 20, 30))
      assertEquals(sink.toList(), List(1, 2, 3))

  test("alsoTo: closed when a stage downstream stops the run early"):
    Async.blocking:
      val sink = BufferedChannel[Int](10)
      assertEquals(Flow.range(0, 100).alsoTo(sink).take(2).runToList(), List(0, 1))
      assertEquals(sink.toList(), List(0, 1))

  test("alsoTo: closed with error(cause) on a failure, which reaches the caller as is"):
    val boom = Boom()
    val sink = BufferedChannel[Int](10)
    val e =
      intercept[Boom](Async.blocking(Flow(1).concat(Flow.failed(boom)).alsoTo(sink).runDrain()))
    assert(e eq boom, e)
    Async.blocking:
      // error(cause) drops what the channel still holds: the next read fails with the cause
      sink.read() match
        case Failure(f: ChannelFailedException) => assert(f.getCause eq boom, f.getCause)
        case other                              => fail(s"the side channel's end: $other")

  test("alsoTo: a full side channel holds the flow back"):
    val probe = FlowProbe(0 until 10)
    val downstream = AtomicInteger()
    Async.blocking:
      val sink = BufferedChannel[Int](2)
      val run = Future(probe.flow.alsoTo(sink).runForeach(_ => downstream.incrementAndGet(): Unit))
      while probe.offered.get < 3 do sleep(1)
      sleep(50) // time for a run that ignores a full channel to go on
      assertEquals(downstream.get, 2, "elements that went on with the side channel full")
      assertEquals(sink.toList(), (0 until 10).toList)
      Waits.within(run, "the run once the side channel is read")
    assertEquals(downstream.get, 10)

  test("alsoTo is cold: nothing is sent before a run"):
    Async.blocking:
      val sink = BufferedChannel[Int](10)
      val f = Flow(1, 2).alsoTo(sink)
      assertEquals(sink.tryRead(), None)
      f.runDrain()
      assertEquals(sink.toList(), List(1, 2))

  test("onComplete: runs once at every kind of end, after the elements"):
    val boom = Boom()
    val events = ListBuffer.empty[String]
    val f = Flow(1, 2, 3).onComplete(events += "complete")
    assertEquals(events.toList, Nil, "run before a terminal operation")
    Async.blocking:
      f.runForeach(i => events += s"$i")
      f.take(1).runDrain()
      assert(Try(f.runForeach(_ => throw boom)).failed.toOption.exists(_ eq boom))
      assert(Try(Flow.failed[Int](boom).onComplete(events += "failed").runDrain()).failed.toOption
        .exists(_ eq boom))
    assertEquals(events.toList, List("1", "2", "3", "complete", "complete", "complete", "failed"))

  test("onComplete: its failure replaces a normal end and is suppressed into a failure"):
    val boom = Boom()
    val late = Boom("late")
    val e1 = intercept[Boom](Async.blocking(Flow(1).onComplete(throw late).runDrain()))
    assert(e1 eq late, e1)
    val e2 =
      intercept[Boom](Async.blocking(Flow.failed[Int](boom).onComplete(throw late).runDrain()))
    assert(e2 eq boom, e2)
    assertEquals(e2.getSuppressed.toList, List(late))

  test("onComplete: its failure replaces an early stop by a stage downstream too"):
    // a take downstream ends the run normally; the function's failure must not vanish into the
    // take's stop signal
    val late = Boom("late")
    val e = intercept[Boom](
      Async.blocking(Flow(1, 2, 3).onComplete(throw late).take(1).runToList())
    )
    assert(e eq late, e)

  test("onComplete: a function that rethrows the run's own failure leaves it as is"):
    // a failure cannot suppress itself (Throwable.addSuppressed throws on it)
    val boom = Boom()
    val e =
      intercept[Boom](Async.blocking(Flow.failed[Int](boom).onComplete(throw boom).runDrain()))
    assert(e eq boom, e)

  test("onDone: runs on a normal end and an early stop, not on a failure"):
    val boom = Boom()
    val done = AtomicInteger()
    val f = Flow(1, 2, 3).onDone(done.incrementAndGet(): Unit)
    Async.blocking:
      assertEquals(f.runToList(), List(1, 2, 3))
      assertEquals(f.take(1).runToList(), List(1))
      assert(Try(f.runForeach(_ => throw boom)).isFailure)
      assert(Try(Flow.failed[Int](boom).onDone(done.incrementAndGet(): Unit).runDrain()).isFailure)
    assertEquals(done.get, 2)

  test("onError: sees the failure (upstream or downstream) as is, which then goes on"):
    val boom = Boom()
    val seen = ListBuffer.empty[Throwable]
    val e1 = intercept[Boom](Async.blocking(Flow.failed[Int](boom).onError(seen += _).runDrain()))
    val e2 = intercept[Boom](Async.blocking(Flow(1).onError(seen += _).runForeach(_ => throw boom)))
    assert((e1 eq boom) && (e2 eq boom), (e1, e2))
    assertEquals(seen.toList.map(_ eq boom), List(true, true))
    Async.blocking:
      assertEquals(Flow(1, 2).onError(seen += _).runToList(), List(1, 2))
      assertEquals(Flow.range(0, 10).onError(seen += _).take(1).runToList(), List(0))
    assertEquals(seen.size, 2, "onError called at a normal end or an early stop")

  test("onError: a failure of its function is suppressed into the failure"):
    val boom = Boom()
    val late = Boom("late")
    val e =
      intercept[Boom](Async.blocking(Flow.failed[Int](boom).onError(_ => throw late).runDrain()))
    assert(e eq boom, e)
    assertEquals(e.getSuppressed.toList, List(late))

  test("recover: an upstream failure becomes a last element and a normal end"):
    val boom = Boom()
    Async.blocking:
      val f = Flow(1, 2).concat(Flow.failed(boom)).concat(Flow(99)).map(_ * 10).recover {
        case e: Boom => -1
      }
      assertEquals(f.runToList(), List(10, 20, -1))
      assertEquals(Flow(1, 2).recover { case _ => -1 }.runToList(), List(1, 2))

  test("recover: a failure pf is not defined at goes on as is"):
    val boom = Boom()
    val e = intercept[Boom]:
      Async.blocking(
        Flow.failed[Int](boom).recover { case _: IllegalStateException => -1 }.runDrain()
      )
    assert(e eq boom, e)

  test("recover: a failure of a stage downstream is never recovered"):
    val boom = Boom()
    val recovered = AtomicInteger()
    val upstream = FlowProbe(Seq(1, 2, 3))
    val e = intercept[Boom]:
      Async.blocking:
        upstream.flow
          .recover { case _ => recovered.incrementAndGet() }
          .map(i => if i == 2 then throw boom else i)
          .runDrain()
    assert(e eq boom, e)
    assertEquals(recovered.get, 0)
    assertEquals(upstream.offered.get, 2, "the upstream stopped at the failing element")

  test("recover: an early stop downstream is not a failure"):
    val recovered = AtomicInteger()
    Async.blocking:
      val got =
        Flow.range(0, 100).recover { case _ => recovered.incrementAndGet() }.take(2).runToList()
      assertEquals(got, List(0, 1))
    assertEquals(recovered.get, 0)

  test("retry: re-runs its upstream on failure; the elements before it go on again"):
    val attempts = AtomicInteger()
    val f = Flow.usingEmit[Int] { emit =>
      val n = attempts.incrementAndGet()
      emit(n)
      if n < 3 then throw Boom(s"attempt $n")
      emit(100)
    }
    Async.blocking(assertEquals(f.retry(Retry.immediate(5)).runToList(), List(1, 2, 3, 100)))
    assertEquals(attempts.get, 3)

  test("retry: runs its upstream 1 + maxRetries times, then throws the last failure as is"):
    val attempts = AtomicInteger()
    val failures = ListBuffer.empty[Boom]
    val f = Flow.usingEmit[Int] { _ =>
      attempts.incrementAndGet()
      val b = Boom(s"attempt ${attempts.get}")
      failures += b
      throw b
    }
    val e = intercept[Boom](Async.blocking(f.map(_ + 1).retry(Retry.immediate(2)).runDrain()))
    assertEquals(attempts.get, 3)
    assert(e eq failures.last, e)

  test("retry: a failure of an operator upstream of it is retried"):
    val probe = FlowProbe(Seq(1, 2))
    val e = intercept[Boom]:
      Async.blocking(
        probe.flow.map(i => if i == 2 then throw Boom() else i).retry(Retry.immediate(3)).runDrain()
      )
    assertEquals(probe.runs.get, 4, e.toString)

  test("retry: a failure of a stage downstream is never retried"):
    val boom = Boom()
    val probe = FlowProbe(Seq(1, 2, 3))
    val e = intercept[Boom]:
      Async.blocking(
        probe.flow.retry(Retry.immediate(5)).map(i => if i == 2 then throw boom else i).runDrain()
      )
    assert(e eq boom, e)
    assertEquals(probe.runs.get, 1)

  test("retry: an early stop downstream is not retried; retryOn is honoured"):
    val probe = FlowProbe(0 until 10)
    Async.blocking(assertEquals(
      probe.flow.retry(Retry.immediate(5)).take(2).runToList(),
      List(0, 1)
    ))
    assertEquals(probe.runs.get, 1)
    val runs = AtomicInteger()
    val boom = Boom()
    val policy = Retry.immediate(5).copy(retryOn = _.isInstanceOf[IllegalStateException])
    val e = intercept[Boom]:
      Async.blocking(Flow.usingEmit[Int] { _ =>
        runs.incrementAndGet(); throw boom
      }.retry(policy).runDrain())
    assert(e eq boom, e)
    assertEquals(runs.get, 1)

  test("recover and retry across a boundary upstream: upstream failures only"):
    val boom = Boom()
    val runs = AtomicInteger()
    Async.blocking:
      val recovered = Flow(1, 2).concat(Flow.failed(boom)).buffer(2).recover { case _: Boom => -1 }
      assertEquals(recovered.runToList(), List(1, 2, -1))
      val retried = Flow
        .usingEmit[Int] { emit =>
          if runs.incrementAndGet() < 3 then throw Boom() else emit(7)
        }
        .buffer(2)
        .retry(Retry.immediate(5))
      assertEquals(retried.runToList(), List(7))
    assertEquals(runs.get, 3)
    val late = Boom("downstream")
    val notRecovered = AtomicInteger()
    val e = intercept[Boom]:
      Async.blocking:
        Flow
          .range(0, 100)
          .buffer(2)
          .recover { case _ => notRecovered.incrementAndGet() }
          .retry(Retry.immediate(3))
          .map(i => if i == 5 then throw late else i)
          .runDrain()
    assert(e eq late, e)
    assertEquals(notRecovered.get, 0)

  test("recover after retry: the retries first, then the recovery"):
    val runs = AtomicInteger()
    Async.blocking:
      val got = Flow
        .usingEmit[Int] { _ =>
          runs.incrementAndGet(); throw Boom()
        }
        .retry(Retry.immediate(1))
        .recover { case _: Boom => -1 }
        .runToList()
      assertEquals(got, List(-1))
    assertEquals(runs.get, 2)
