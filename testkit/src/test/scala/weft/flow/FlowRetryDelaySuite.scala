package weft.flow

import java.io.IOException
import java.util.concurrent.TimeoutException
import scala.concurrent.duration.*
import weft.*
import weft.flow.FlowTimeTesting.*
import weft.testing.{Deadlined, FailureChecks}
import weft.testing.VirtualTesting.*
import weft.testkit.*

/**
 * `retry(policy)` with pauses: the flow's upstream is run again after each of its failures,
 * after the policy's pause, counted from the failure. On virtual time, so each attempt's instant
 * is exact.
 */
class FlowRetryDelaySuite extends munit.FunSuite, Deadlined, FailureChecks:

  private val exponential =
    Retry(maxRetries = 3, delay = Retry.Delay.Exponential(1.second, 1.minute))

  /** A source that records when each run starts, emits the attempt's number, then fails. */
  private final class Flaky(succeedAt: Int, work: FiniteDuration = Duration.Zero)(using
      VirtualClock
  ):
    var attempts = Vector.empty[FiniteDuration]
    val flow: Flow[Int] = Flow.usingEmit: emit =>
      attempts :+= currentTime
      val n = attempts.size
      emit(n)
      if work > Duration.Zero then sleep(work)
      if n < succeedAt then throw IOException(s"attempt $n failed")

  onBothCallers("exponential backoff: attempts at 0, 1, 3 and 7 s, then the last failure"):
    VirtualTime.run:
      val flaky = Flaky(succeedAt = Int.MaxValue)
      var seen = Vector.empty[Int]
      val e = intercept[IOException](flaky.flow.retry(exponential).runForeach(seen :+= _))
      assertEquals(e.getMessage, "attempt 4 failed")
      assertEquals(flaky.attempts, Vector(0, 1, 3, 7).map(_.seconds))
      assertEquals(seen, Vector(1, 2, 3, 4), "each attempt's elements went downstream")
      assertEquals(currentTime, 7.seconds)
      assertEquals(scopeTimers, 0)

  test("a success ends the retries: the elements of every attempt, the run at the success"):
    VirtualTime.run:
      val flaky = Flaky(succeedAt = 3)
      assertEquals(
        stamped(flaky.flow.retry(exponential)),
        List(0 -> 1, 1 -> 2, 3 -> 3).map((t, v) => (t.seconds, v))
      )
      assertEquals(flaky.attempts, Vector(0, 1, 3).map(_.seconds))

  test("the pause counts from the failure, not from the attempt's start"):
    VirtualTime.run:
      val flaky = Flaky(succeedAt = 4, work = 500.millis)
      assertEquals(flaky.flow.retry(exponential).runToList(), List(1, 2, 3, 4))
      // fails at 0.5 s, + 1 s; fails at 2 s, + 2 s; fails at 4.5 s, + 4 s
      assertEquals(flaky.attempts, Vector(0.millis, 1500.millis, 4.seconds, 8500.millis))
      assertEquals(currentTime, 9.seconds)

  test("the pause is capped at the policy's max; a constant pause is constant"):
    VirtualTime.run:
      val capped = Retry(maxRetries = 4, delay = Retry.Delay.Exponential(1.second, 3.seconds))
      val flaky = Flaky(succeedAt = Int.MaxValue)
      intercept[IOException](flaky.flow.retry(capped).runDrain())
      assertEquals(flaky.attempts, Vector(0, 1, 3, 6, 9).map(_.seconds))
      val constant = Retry(maxRetries = 2, delay = Retry.Delay.Constant(250.millis))
      val again = Flaky(succeedAt = Int.MaxValue)
      intercept[IOException](again.flow.retry(constant).runDrain())
      assertEquals(again.attempts, Vector(9000, 9250, 9500).map(_.millis))

  test("a boundary upstream is started again for each attempt, and none is left running"):
    VirtualTime.run:
      // the attempt works 100 ms before it fails, so its element has crossed the boundary
      // before the failure cancels the boundary's consumer, whichever runs first
      val flaky = Flaky(succeedAt = 3, work = 100.millis)
      var fibers = Set.empty[Thread]
      val flow = flaky.flow.tap(_ => fibers += Thread.currentThread()).buffer(2).retry(exponential)
      assertEquals(flow.runToList(), List(1, 2, 3))
      assertEquals(flaky.attempts, Vector(0, 1100, 3200).map(_.millis))
      assertEquals(fibers.size, 3, "each attempt ran its upstream on a fiber of its own")
      assert(fibers.forall(!_.isAlive), "an attempt's upstream fiber outlived the run")

  test("a failure downstream is not retried, and no pause is taken"):
    VirtualTime.run:
      val flaky = Flaky(succeedAt = Int.MaxValue)
      val e = intercept[IllegalStateException](
        flaky.flow.retry(exponential).runForeach(_ => throw IllegalStateException("downstream"))
      )
      assertEquals(e.getMessage, "downstream")
      assertEquals((flaky.attempts, currentTime), (Vector(Duration.Zero), Duration.Zero))

  test("a timeout after the retries ends them at its exact time, during a pause"):
    VirtualTime.run:
      val flaky = Flaky(succeedAt = Int.MaxValue)
      intercept[TimeoutException](flaky.flow.retry(exponential).timeout(5.seconds).runDrain())
      assertEquals(flaky.attempts, Vector(0, 1, 3).map(_.seconds))
      assertEquals(currentTime, 5.seconds)
      assertEquals(scopeTimers, 0, "the pause's timer outlived the run")
