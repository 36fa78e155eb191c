package weft

import java.util.concurrent.{CancellationException, TimeoutException}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicInteger}
import scala.concurrent.duration.*
import weft.*
import weft.testing.VirtualTesting.*
import weft.testkit.*

/**
 * withTimeout / withTimeoutOption: values, timeouts that cancel the body's scope, errors. On
 * virtual time: a timeout fires at exactly its limit. The races with the real clock are in
 * `TimeoutRealTimeSuite`.
 */
class TimeoutSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("a body that finishes in time gives its value"):
    VirtualTime.run:
      assertEquals(withTimeout(5.seconds)(42), 42)
      assertEquals(withTimeoutOption(5000)("x"), Some("x"))
      assertEquals(currentTime, Duration.Zero)
      assertEquals(scopeTimers, 0)

  test("a body that overruns throws TimeoutException, at exactly the limit"):
    VirtualTime.run:
      val e = intercept[TimeoutException](withTimeout(80)(sleep(60_000)))
      assert(e.getMessage.contains("80"))
      assertEquals(currentTime, 80.millis)
      intercept[TimeoutException](withTimeout(10.seconds)(sleep(20.seconds)))
      assertEquals(currentTime, 80.millis + 10.seconds, "not 9.999 s, not 10.001 s later")

  test("withTimeoutEither: Right(value) in time, Left(onTimeout) after, body cancelled"):
    val bodyEnded = AtomicBoolean()
    var onTimeoutRuns = 0
    def late(): String =
      onTimeoutRuns += 1
      "late"
    VirtualTime.run:
      assertEquals(withTimeoutEither(5.seconds, late())(42), Right(42))
      assertEquals(onTimeoutRuns, 0, "onTimeout was evaluated although the body was in time")
      val r = withTimeoutEither(30, late()):
        try sleep(60_000)
        finally bodyEnded.set(true)
        1
      assertEquals(r, Left("late"))
      assertEquals(currentTime, 30.millis)
      assert(bodyEnded.get, "the body had not ended when the call returned")
      intercept[IllegalArgumentException](withTimeoutEither(-1, "x")(1))
      val e = intercept[IllegalStateException](
        withTimeoutEither(5.seconds, "x")(throw IllegalStateException("own"))
      )
      assertEquals(e.getMessage, "own")
      assertEquals(currentTime, 30.millis)

  test("withTimeoutOption returns None on timeout"):
    VirtualTime.run:
      assertEquals(withTimeoutOption(30.millis) { sleep(60_000); 1 }, None)
      assertEquals(currentTime, 30.millis)
      assertEquals(withTimeoutOption(30.millis) { sleep(29.millis); 1 }, Some(1))
      assertEquals(currentTime, 59.millis)

  test("on timeout the body's scope is cancelled and finished before the call returns"):
    val bodyCleaned = AtomicBoolean()
    val childCleaned = AtomicBoolean()
    VirtualTime.run:
      val r = withTimeoutOption(40):
        Future:
          try sleep(60_000)
          finally childCleaned.set(true)
        try sleep(60_000)
        finally bodyCleaned.set(true)
      assertEquals(r, None)
      assertEquals(currentTime, 40.millis)
      assert(bodyCleaned.get, "the body was not finished")
      assert(childCleaned.get, "the body's child future was not finished")
      assertEquals(scopeTimers, 0, "the body's sleeps left a timer")

  // The child's region defers its cancellation for 5 ms past the limit: a call that returned
  // without joining the block's futures would return at the limit, before the child ended.
  test("on timeout the call returns only once the block's futures have ended"):
    val childEnded = AtomicBoolean()
    VirtualTime.run:
      val r = withTimeoutOption(40):
        Future:
          uninterruptible:
            sleep(45)
            childEnded.set(true)
        sleep(60_000)
      assertEquals(r, None)
      assert(childEnded.get, "the call returned before the block's future ended")
      assertEquals(currentTime, 45.millis)

  test("the body's exception is rethrown, not turned into a timeout"):
    VirtualTime.run:
      val e = intercept[IllegalStateException](withTimeout(5000)(throw IllegalStateException("b")))
      assertEquals(e.getMessage, "b")

  // The region defers the cancellation until its sleep has ended: the call returns then, with
  // the timeout, not at the limit.
  test("an uninterruptible body is waited for, then the timeout is reported"):
    VirtualTime.run:
      val r = withTimeoutOption(10) { uninterruptible(sleep(100)); 1 }
      assertEquals(r, None)
      assertEquals(currentTime, 100.millis, "returned before the body ended")

  test("a finished body frees the timer"):
    VirtualTime.run:
      (1 to 100).foreach(i => assertEquals(withTimeout(60_000)(i), i))
      assertEquals(scopeTimers, 0)

  test("cancelling the caller cancels the body"):
    val cleaned = AtomicInteger()
    VirtualTime.run:
      val started = Promise[Unit]()
      val f = Future:
        withTimeout(60_000):
          started.success(())
          try sleep(60_000)
          finally cleaned.incrementAndGet()
      started.future.await
      f.cancel()
      assert(f.result.failed.get.isInstanceOf[CancellationException])
      assertEquals(currentTime, Duration.Zero)
      runUntilIdle() // the cancelled future's fiber unwinds after its result is known
      assertEquals(scopeTimers, 0)
    assertEquals(cleaned.get, 1)

  test("negative limits are an IllegalArgumentException"):
    Async.blocking:
      intercept[IllegalArgumentException](withTimeout(-1)(1))
      intercept[IllegalArgumentException](withTimeoutOption(-1.millis)(1))
