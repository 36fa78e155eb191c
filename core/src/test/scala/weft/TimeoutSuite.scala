package weft

import java.util.concurrent.{CancellationException, TimeoutException}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicInteger}
import scala.concurrent.duration.*
import weft.*
import weft.testing.TimeTesting.*

/** withTimeout / withTimeoutOption: values, timeouts that cancel the body's scope, errors. */
class TimeoutSuite extends munit.FunSuite, weft.testing.StressChecks:

  test("a body that finishes in time gives its value"):
    Async.blocking:
      assertEquals(withTimeout(5.seconds)(42), 42)
      assertEquals(withTimeoutOption(5000)("x"), Some("x"))

  test("a body that overruns throws TimeoutException, after at least the limit"):
    val (e, ms) = timed:
      intercept[TimeoutException](Async.blocking(withTimeout(80)(sleep(60_000))))
    assert(e.getMessage.contains("80"))
    assert(ms >= 80, s"timed out after $ms ms")

  test("withTimeoutEither: Right(value) in time, Left(onTimeout) after, body cancelled"):
    val bodyEnded = AtomicBoolean()
    var onTimeoutRuns = 0
    def late(): String =
      onTimeoutRuns += 1
      "late"
    Async.blocking:
      assertEquals(withTimeoutEither(5.seconds, late())(42), Right(42))
      assertEquals(onTimeoutRuns, 0, "onTimeout was evaluated although the body was in time")
      val r = withTimeoutEither(30, late()):
        try sleep(60_000)
        finally bodyEnded.set(true)
        1
      assertEquals(r, Left("late"))
      assert(bodyEnded.get, "the body had not ended when the call returned")
      intercept[IllegalArgumentException](withTimeoutEither(-1, "x")(1))
      val e = intercept[IllegalStateException](
        withTimeoutEither(5.seconds, "x")(throw IllegalStateException("own"))
      )
      assertEquals(e.getMessage, "own")

  test("withTimeoutOption returns None on timeout"):
    Async.blocking:
      assertEquals(withTimeoutOption(30.millis) { sleep(60_000); 1 }, None)

  test("on timeout the body's scope is cancelled and finished before the call returns"):
    val bodyCleaned = AtomicBoolean()
    val childCleaned = AtomicBoolean()
    Async.blocking:
      val r = withTimeoutOption(40):
        Future:
          try sleep(60_000)
          finally childCleaned.set(true)
        try sleep(60_000)
        finally bodyCleaned.set(true)
      assertEquals(r, None)
      assert(bodyCleaned.get, "the body was not finished")
      assert(childCleaned.get, "the body's child future was not finished")

  test("the body's exception is rethrown, not turned into a timeout"):
    Async.blocking:
      val e = intercept[IllegalStateException](withTimeout(5000)(throw IllegalStateException("b")))
      assertEquals(e.getMessage, "b")

  test("an uninterruptible body is waited for, then the timeout is reported"):
    val (r, ms) = timed:
      Async.blocking:
        withTimeoutOption(10) { uninterruptible(Thread.sleep(100)); 1 }
    assertEquals(r, None)
    assert(ms >= 100, s"returned after $ms ms, before the body ended")

  test("a finished body frees the timer"):
    val before = pendingTimers
    Async.blocking((1 to 100).foreach(i => assertEquals(withTimeout(60_000)(i), i)))
    assert(pendingTimers <= before, s"pending $pendingTimers > $before")

  test("cancelling the caller cancels the body"):
    val cleaned = AtomicInteger()
    Async.blocking:
      val started = Promise[Unit]()
      val f = Future:
        withTimeout(60_000):
          started.success(())
          try sleep(60_000)
          finally cleaned.incrementAndGet()
      started.future.await
      f.cancel()
      assert(f.result.failed.get.isInstanceOf[CancellationException])
    assertEquals(cleaned.get, 1)

  test("negative limits are an IllegalArgumentException"):
    Async.blocking:
      intercept[IllegalArgumentException](withTimeout(-1)(1))
      intercept[IllegalArgumentException](withTimeoutOption(-1.millis)(1))

  test("a value produced as the timeout fires is returned, never discarded"):
    Async.blocking:
      // A body that never waits cannot be cut short: it returns its value after the time is up.
      // A body whose fiber had not started when the time was up never runs (None is right
      // then): on a loaded machine that happens, so each call is retried until its body ran.
      val started = AtomicBoolean()
      def busy(v: Int): Int =
        started.set(true)
        val until = System.nanoTime() + 100_000_000L
        while System.nanoTime() < until do Thread.onSpinWait()
        v
      def once[T](call: => T): Option[T] =
        started.set(false)
        val r = scala.util.Try(call)
        if started.get then Some(r.get) else None
      def untilStarted[T](call: => T): T =
        Iterator.continually(once(call)).take(50).flatten.nextOption().getOrElse:
          fail("the body never started in 50 tries")
      assertEquals(untilStarted(withTimeoutOption(1.milli)(busy(7))), Some(7))
      assertEquals(untilStarted(withTimeout(1.milli)(busy(8))), 8)

  test("values read from a channel under short timeouts are all returned"):
    withinDeadline(60, "timeout-channel"):
      val n = 20_000
      val ch = weft.channels.BufferedChannel[Int](n)
      Async.blocking:
        for i <- 1 to n do ch.send(i)
      val got = scala.collection.mutable.ArrayBuffer[Int]()
      val rnd = scala.util.Random(3)
      Async.blocking:
        var rounds = 0
        while got.length < n && rounds < 3 * n do
          rounds += 1
          withTimeoutOption(rnd.nextInt(2).toLong)(ch.read().get).foreach(got += _)
      assertEquals(got.toVector, (1 to n).toVector, "a value read as its timeout fired was lost")
