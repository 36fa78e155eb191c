package weft.resilience

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import scala.concurrent.duration.*
import scala.util.Try
import weft.*
import weft.resilience.CircuitBreaker.State
import weft.resilience.CircuitBreakerConfig.Window
import weft.testkit.*

/**
 * CircuitBreaker: its state machine on virtual time (a breaker made inside `VirtualTime.run`
 * reads its clock), so each transition is checked at its exact instant; then under many fibers.
 */
class CircuitBreakerSuite extends munit.FunSuite, weft.testing.Deadlined:
  // Longer than the storms' own deadlines (60 s), so theirs speak first.
  override def testDeadlineSeconds: Int = 75

  val boom = IllegalStateException("boom")

  /** Runs `body` on virtual time, with a breaker of `config` made there. */
  def onVirtualTime(config: CircuitBreakerConfig)(
      body: CircuitBreaker => (VirtualClock, Async) ?=> Unit
  ): Unit = VirtualTime.run(body(CircuitBreaker(config)))

  def ok(b: CircuitBreaker): Try[Int] = Try(b.run(1))
  def fail(b: CircuitBreaker): Try[Int] = Try(b.run(throw boom))

  def rejected(t: Try[?]): Boolean =
    t.failed.toOption.exists(_.isInstanceOf[CircuitBreakerOpenException])

  val counting = CircuitBreakerConfig(
    failureRateThreshold = 50,
    window = Window.Count(4),
    minimumCalls = 4,
    waitInOpen = 10.seconds,
    halfOpenCalls = 2
  )

  test("closed: opens once the failure rate of the window reaches the threshold, not before"):
    onVirtualTime(counting): b =>
      fail(b); fail(b); fail(b)
      assertEquals(b.state, State.Closed, "3 calls: below minimumCalls")
      ok(b)
      assertEquals(b.state, State.Open, "2 failures of 4 = 50%")
      val e = intercept[CircuitBreakerOpenException](b.run(1))
      assertEquals(e.state, State.Open)
      assertEquals(e.retryAfter, 10.seconds)
      assertEquals(b.metrics.rejectedCalls, 1L)

  test("closed: the count window keeps the last calls only"):
    onVirtualTime(counting): b =>
      fail(b); ok(b); ok(b); ok(b) // 25%
      ok(b); ok(b); fail(b) // window: ok ok ok fail = 25%
      assertEquals(b.state, State.Closed)
      assertEquals((b.metrics.calls, b.metrics.failedCalls), (4, 1))
      fail(b) // ok ok fail fail = 50%
      assertEquals(b.state, State.Open)

  test("open: rejects without running, then half-opens after waitInOpen"):
    onVirtualTime(counting): b =>
      for _ <- 1 to 4 do fail(b)
      val ran = AtomicInteger()
      sleep(9999.millis)
      val e = intercept[CircuitBreakerOpenException](b.run(ran.incrementAndGet()))
      assertEquals(e.retryAfter, 1.milli)
      assertEquals(ran.get, 0)
      assertEquals(b.state, State.Open, "9.999 s after opening")
      sleep(1.milli)
      assertEquals(b.state, State.HalfOpen, "exactly 10 s after opening")
      assertEquals(currentTime, 10.seconds)

  test("half-open: the probes close the breaker when they succeed, reopen it when they fail"):
    onVirtualTime(counting): b =>
      for _ <- 1 to 4 do fail(b)
      sleep(10.seconds)
      ok(b)
      assertEquals(b.state, State.HalfOpen, "one probe of two ended")
      fail(b) // 1 of 2 failed = 50%: open again
      assertEquals(b.state, State.Open)
      sleep(10.seconds)
      ok(b); ok(b)
      assertEquals(b.state, State.Closed)
      assertEquals(b.metrics.calls, 0, "closed with an empty window")
      fail(b); fail(b); fail(b)
      assertEquals(b.state, State.Closed, "a fresh window needs minimumCalls again")

  test("half-open: only halfOpenCalls probes run at once, the others are rejected"):
    withinDeadline(30, "breaker-probes-"):
      onVirtualTime(counting.copy(halfOpenCalls = 3)): b =>
        for round <- 1 to 20 do
          for _ <- 1 to 4 do fail(b)
          assertEquals(b.state, State.Open)
          sleep(10.seconds)
          val gate = Promise[Unit]()
          val entered = AtomicInteger()
          val rejections = AtomicInteger()
          Async.group:
            val callers = (1 to 12).map(_ =>
              Future:
                try
                  b.run:
                    entered.incrementAndGet()
                    gate.future.await
                catch
                  case e: CircuitBreakerOpenException =>
                    assertEquals(e.state, State.HalfOpen)
                    rejections.incrementAndGet(): Unit
            )
            runUntilIdle()
            assertEquals(entered.get + rejections.get, 12, "every caller ran or was rejected")
            gate.success(())
            callers.awaitAll: Unit
          assertEquals((entered.get, rejections.get), (3, 9), s"round $round")
          assertEquals(b.state, State.Closed)

  test("a cancelled probe counts as nothing and gives its place to another probe"):
    onVirtualTime(counting): b =>
      for _ <- 1 to 4 do fail(b)
      sleep(10.seconds)
      Async.group:
        val probes = (1 to 2).map(_ => Future(b.run(sleep(1.hour))))
        runUntilIdle()
        assert(rejected(ok(b)), "both probes under way")
        probes.foreach(_.cancel())
        probes.foreach(p =>
          assert(p.result.failed.toOption.exists(_.isInstanceOf[CancellationException]))
        )
      assertEquals(b.state, State.HalfOpen)
      ok(b); ok(b)
      assertEquals(b.state, State.Closed)

  test("slow calls open the breaker at their own threshold"):
    val config = counting.copy(
      slowCallRateThreshold = 75,
      slowCallDuration = 1.second,
      failureRateThreshold = 100
    )
    onVirtualTime(config): b =>
      def slow() = b.run(sleep(1.second))
      b.run(sleep(999.millis)); b.run(sleep(999.millis))
      assertEquals(b.metrics.slowCalls, 0, "999 ms is not slow")
      slow(); slow(); ok(b); ok(b)
      assertEquals((b.state, b.metrics.slowCalls), (State.Closed, 2))
      slow(); slow() // the last 4: ok ok slow slow = 50%
      assertEquals(b.state, State.Closed)
      slow()
      assertEquals(b.state, State.Open, "3 slow calls of 4 = 75%")

  test("isFailure decides which exceptions are failures; the others are successes"):
    onVirtualTime(counting.copy(isFailure = !_.isInstanceOf[java.util.NoSuchElementException])):
      b =>
        for _ <- 1 to 4 do Try(b.run(throw java.util.NoSuchElementException("no such key")))
        assertEquals((b.state, b.metrics.calls, b.metrics.failedCalls), (State.Closed, 4, 0))
        val broken =
          CircuitBreaker(counting.copy(isFailure = _ => throw IllegalStateException("broken")))
        val e = intercept[IllegalStateException](broken.run(throw boom))
        assertEquals(e.getMessage, "boom")
        assertEquals(e.getSuppressed.map(_.getMessage).toSeq, Seq("broken"))
        assertEquals(broken.metrics.failedCalls, 1)

  test("time window: outcomes older than the window are forgotten"):
    onVirtualTime(counting.copy(window = Window.Time(10.seconds), minimumCalls = 3)): b =>
      fail(b); fail(b)
      sleep(10.seconds)
      assertEquals(b.metrics.calls, 0)
      ok(b); fail(b)
      assertEquals(b.state, State.Closed, "2 calls in the window")
      ok(b) // 1 of 3
      sleep(5.seconds)
      fail(b) // 2 of 4
      assertEquals(b.state, State.Open)

  test("runEither: a Left is a failure; a rejection is a Left of the open exception"):
    onVirtualTime(counting): b =>
      for _ <- 1 to 2 do assertEquals(b.runEither(Left("down")), Left("down"))
      for _ <- 1 to 2 do assertEquals(b.runEither(Right(1)), Right(1))
      assertEquals(b.state, State.Open)
      b.runEither[String, Int](Right(1)) match
        case Left(e: CircuitBreakerOpenException) => assertEquals(e.state, State.Open)
        case other                                => fail(s"not rejected: $other")

  test("many fibers: every outcome counted exactly once while closed"):
    withinDeadline(60, "breaker-count-"):
      val b = CircuitBreaker(
        CircuitBreakerConfig(
          window = Window.Count(2000),
          minimumCalls = 2000,
          failureRateThreshold = 100
        )
      )
      Async.blocking:
        (0 until 8).map(f =>
          Future(for k <- 0 until 200 do Try(b.run(if (f + k) % 4 == 0 then throw boom else k)))
        ).awaitAll: Unit
      val m = b.metrics
      assertEquals((m.state, m.calls, m.failedCalls), (State.Closed, 1600, 400))

  test("many fibers while the state flips: each call ends once, rejections all counted"):
    withinDeadline(60, "breaker-flip-"):
      val config = counting.copy(window = Window.Count(10), minimumCalls = 5, waitInOpen = 1.milli)
      val ran, failed, rejections = AtomicLong()
      onVirtualTime(config): b =>
        val callers = (0 until 8).map(f =>
          Future:
            val rnd = scala.util.Random(f)
            for _ <- 1 to 2000 do
              try
                b.run:
                  ran.incrementAndGet()
                  if rnd.nextInt(3) == 0 then throw boom
              catch
                case _: CircuitBreakerOpenException => rejections.incrementAndGet(): Unit
                case e if e eq boom                 => failed.incrementAndGet(): Unit
              if rnd.nextInt(50) == 0 then sleep(1.milli)
        )
        callers.awaitAll: Unit
        assertEquals(ran.get + rejections.get, 16000L)
        assertEquals(b.metrics.rejectedCalls, rejections.get)
        assert(
          rejections.get > 0 && ran.get > 0,
          s"the state never flipped: $ran ran, $rejections rejected"
        )
        val m = b.metrics
        assert(m.calls <= 10 && m.failedCalls <= m.calls, m.toString)

  test("bad input is rejected at the call"):
    def rejects(what: String)(body: => Any): Unit =
      val e = intercept[IllegalArgumentException](body)
      assert(e.getMessage.contains(what), e.getMessage)
    rejects("failureRateThreshold")(CircuitBreakerConfig(failureRateThreshold = 0))
    rejects("failureRateThreshold")(CircuitBreakerConfig(failureRateThreshold = 100.5))
    rejects("failureRateThreshold")(CircuitBreakerConfig(failureRateThreshold = Double.NaN))
    rejects("slowCallRateThreshold")(CircuitBreakerConfig(slowCallRateThreshold = -1))
    rejects("slowCallDuration")(CircuitBreakerConfig(slowCallDuration = Duration.Zero))
    rejects("calls")(CircuitBreakerConfig(window = Window.Count(0)))
    rejects("duration")(CircuitBreakerConfig(window = Window.Time(-1.second)))
    rejects("minimumCalls")(CircuitBreakerConfig(minimumCalls = 0))
    rejects("waitInOpen")(CircuitBreakerConfig(waitInOpen = 0.seconds))
    rejects("halfOpenCalls")(CircuitBreakerConfig(halfOpenCalls = 0))
    rejects("isFailure")(CircuitBreakerConfig(isFailure = null))
