package weft.guide

import java.util.concurrent.TimeoutException
import scala.concurrent.duration.*
import scala.util.Try
import weft.*

/** The examples of docs/guide/time-retry.md, run. */
class TimeGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("time: sleep and timeouts"):
    // example: time-timeouts
    val (quick, slow, failed) = Async.blocking:
      sleep(10.millis) // a plain number is milliseconds: sleep(10) is the same
      val quick = withTimeout(10.seconds)(21 * 2) // 42
      val slow = withTimeoutOption(50.millis):
        sleep(10.seconds)
        "late" // None: the body was cancelled, and has ended
      val failed = Try(withTimeout(50.millis)(sleep(10.seconds))) // Failure(TimeoutException)
      (quick, slow, failed)
    // end
    assertEquals(quick, 42)
    assertEquals(slow, None)
    assert(failed.failed.toOption.exists(_.isInstanceOf[TimeoutException]), failed)

  test("time: task schedules"):
    // example: time-tasks
    val (lastPoll, flakyResult) = Async.blocking:
      var polls = 0
      val poller = Task { polls += 1; polls }
      val lastPoll = poller.schedule(TaskSchedule.Every(20, maxRepetitions = 5)).run.await // 5

      var attempts = 0
      val flaky = Task:
        attempts += 1
        if attempts < 3 then throw IllegalStateException("not yet") else s"ok after $attempts"
      val flakyResult = flaky.schedule(TaskSchedule.RepeatUntilSuccess(millis = 10)).run.await
      (lastPoll, flakyResult) // (5, ok after 3)
    // end
    assertEquals(lastPoll, 5)
    assertEquals(flakyResult, "ok after 3")

  test("retry: a policy"):
    // example: retry-policy
    var attempts = 0
    def flakyCall()(using Async): String =
      attempts += 1
      if attempts < 3 then throw java.io.IOException(s"attempt $attempts failed") else "ok"

    val policy = Retry(
      maxRetries = 5, // at most 6 attempts in all
      delay = Retry.Delay.Exponential(initial = 10.millis, max = 1.second),
      jitter = Retry.Jitter.Full,
      retryOn = _.isInstanceOf[java.io.IOException] // anything else is thrown at once
    )
    val reply = Async.blocking(retry(policy)(flakyCall())) // "ok", at the third attempt
    // end
    assertEquals(reply, "ok")
    assertEquals(attempts, 3)

  test("retry: Retry(0) makes one attempt"):
    // example: retry-zero
    var attempts = 0
    val outcome = Async.blocking:
      Try:
        retry(Retry(0)): // no retry: the body runs once
          attempts += 1
          throw IllegalStateException("down")
    // outcome: Failure(IllegalStateException: down); attempts: 1
    // end
    assertEquals(attempts, 1)
    assert(outcome.isFailure)
    val untilSuccess = Retry.forever(Retry.Delay.Constant(10.millis))
    assertEquals(untilSuccess.maxRetries, Retry.Unlimited)

  test("time: timeout as Either"):
    // example: time-timeout-either
    val (inTime, late) = Async.blocking:
      val inTime = withTimeoutEither(1.second, "too slow")(21 * 2) // Right(42)
      val late = withTimeoutEither(20.millis, "too slow")(sleep(10.seconds)) // Left(too slow)
      (inTime, late)
    // end
    assertEquals(inTime, Right(42))
    assertEquals(late, Left("too slow"))

  test("time: ticker"):
    // example: time-ticker
    val beats = Async.blocking:
      val ticker = Ticker(10.millis)
      var beats = 0
      for _ <- ticker.values.take(3) do beats += 1 // one beat per tick
      beats // 3; the ticker stops with this scope
    // end
    assertEquals(beats, 3)

  test("retry: until failure, custom delay"):
    // example: retry-until-failure
    var polls = 0
    val outcome = Async.blocking:
      Try:
        val growing = Retry.Delay.Custom((step, previous) => previous + step.millis) // 1, 3, 6 ms
        retry(Retry.untilFailure(growing)):
          polls += 1
          if polls == 4 then throw IllegalStateException("source closed")
    // outcome: Failure(IllegalStateException: source closed); polls: 4
    // end
    assertEquals(outcome.failed.toOption.map(_.getMessage), Some("source closed"))
    assertEquals(polls, 4)
