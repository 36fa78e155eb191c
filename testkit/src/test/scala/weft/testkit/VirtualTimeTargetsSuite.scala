package weft.testkit

import java.util.concurrent.TimeoutException
import scala.collection.mutable.ArrayBuffer
import scala.concurrent.duration.*
import scala.util.Try
import weft.*
import weft.channels.*
import weft.resilience.*
import weft.testing.Deadlined

/**
 * The targets of virtual time: long schedules of weft's timed facilities, each run in virtual
 * time with every timestamp asserted exactly. The wall time of each is printed, not asserted.
 */
class VirtualTimeTargetsSuite extends Deadlined:

  /** Runs `body` in a virtual-time scope and prints how much real time it took. */
  private def timed[T](label: String)(body: (VirtualClock, Async) ?=> T): T =
    val start = System.nanoTime()
    try VirtualTime.run(body)
    finally
      val ms = (System.nanoTime() - start) / 1_000_000.0
      println(f"virtual-time target '$label': $ms%.1f ms of wall time")

  test("a retry with exponential backoff: an hour of pauses, each attempt on time"):
    timed("retry for an hour"):
      // Pauses of 4, 8, 16 and 32 minutes: 60 minutes in all, the fifth attempt succeeds.
      val policy = Retry(4, delay = Retry.Delay.Exponential(4.minutes, max = 1.hour))
      val attempts = ArrayBuffer.empty[FiniteDuration]
      val v = retry(policy):
        attempts += currentTime
        if attempts.size < 5 then throw IllegalStateException(s"attempt ${attempts.size}")
        "up"
      assertEquals(v, "up")
      assertEquals(attempts.toList, List(0, 4, 12, 28, 60).map(_.minutes))
      assertEquals(currentTime, 1.hour)

  test("a retry that gives up throws its last failure at exactly the sum of its pauses"):
    timed("retry giving up"):
      val policy = Retry(3, delay = Retry.Delay.Constant(20.minutes))
      val e = intercept[IllegalStateException](retry(policy)(throw IllegalStateException("down")))
      assertEquals(e.getMessage, "down")
      assertEquals(currentTime, 1.hour)

  test("a 1 s ticker for a virtual day: exactly 86,400 ticks, tick k at k seconds"):
    timed("ticker for a day"):
      val t = Ticker(1.second)
      val samples = Set(1L, 2L, 59L, 3600L, 43_200L, 86_399L, 86_400L)
      var n = 0L
      while n < 86_400L do
        assert(Async.await(t), s"the ticker stopped after $n ticks")
        n += 1
        if samples(n) then assertEquals(currentTime, n.seconds, s"tick $n")
      assertEquals(t.ticks, 86_400L)
      assertEquals(currentTime, 1.day)
      t.cancel()

  test("withTimeout(10 s) around a 20 s sleep fails at exactly virtual 10 s"):
    timed("withTimeout"):
      intercept[TimeoutException](withTimeout(10.seconds)(sleep(20.seconds)))
      assertEquals(currentTime, 10.seconds)
      intercept[TimeoutException](withTimeout(10_000L)(sleep(20.seconds)))
      assertEquals(currentTime, 20.seconds)

  test("withTimeoutOption and withTimeoutEither: at exactly the timeout, or the body's value"):
    timed("withTimeoutOption/Either"):
      assertEquals(withTimeoutOption(10.seconds)(sleep(20.seconds)), None)
      assertEquals(currentTime, 10.seconds)
      assertEquals(withTimeoutOption(3_000L)(sleep(20.seconds)), None)
      assertEquals(currentTime, 13.seconds)
      assertEquals(withTimeoutEither(2.seconds, "late")(sleep(1.hour)), Left("late"))
      assertEquals(currentTime, 15.seconds)
      assertEquals(withTimeoutEither(5_000L, "late")(sleep(1.hour)), Left("late"))
      assertEquals(currentTime, 20.seconds)
      // A body that ends just in time: its value, at its own end.
      assertEquals(withTimeoutOption(10.seconds) { sleep(10.seconds - 1.nano); 7 }, Some(7))
      assertEquals(currentTime, 30.seconds - 1.nano)

  test("a circuit breaker half-opens exactly after its wait, not 1 ns before"):
    timed("circuit breaker"):
      val wait = 30.seconds
      val breaker = CircuitBreaker(
        CircuitBreakerConfig(
          window = CircuitBreakerConfig.Window.Count(1),
          minimumCalls = 1,
          waitInOpen = wait,
          halfOpenCalls = 1
        )
      )
      sleep(5.seconds) // the breaker opens at 5 s: it half-opens at 35 s
      intercept[IllegalStateException](breaker.run(throw IllegalStateException("down")))
      assertEquals(breaker.state, CircuitBreaker.State.Open)
      sleep(wait - 1.nano)
      val rejected = intercept[CircuitBreakerOpenException](breaker.run("too early"))
      assertEquals(rejected.retryAfter, 1.nano)
      assertEquals(breaker.state, CircuitBreaker.State.Open)
      sleep(1.nano)
      assertEquals(currentTime, 35.seconds)
      val probe = breaker.run:
        assertEquals(breaker.state, CircuitBreaker.State.HalfOpen)
        "probe"
      assertEquals(probe, "probe")
      assertEquals(breaker.state, CircuitBreaker.State.Closed)

  test("a fixed-window rate limiter admits exactly its rate in each of 1,000 windows"):
    timed("fixed window, 1,000 windows"):
      val rate = 5
      val limiter = RateLimiter.fixedWindow(rate, 1.second)
      val perWindow = new Array[Int](1000)
      // Three fibers compete for the permits: the limit holds for them all together.
      val fibers = (1 to 3).map: _ =>
        Future:
          var mine = 0
          while currentTime < 1000.seconds do
            limiter.acquire()
            val now = currentTime
            if now < 1000.seconds then
              assertEquals(now.toNanos % 1_000_000_000L, 0L, s"a permit at $now")
              perWindow.synchronized(perWindow(now.toSeconds.toInt) += 1)
              mine += 1
          mine
      val total = fibers.map(_.await).sum
      assertEquals(perWindow.toList, List.fill(1000)(rate))
      assertEquals(total, 1000 * rate)

  test("Task schedules: Every runs at fixed rate, ExponentialBackoff doubles its pauses"):
    timed("task schedules"):
      val every = ArrayBuffer.empty[FiniteDuration]
      Task(every += currentTime).schedule(TaskSchedule.Every(1.second, 5)).run.await
      assertEquals(every.toList, (0 to 4).map(_.seconds).toList)
      val start = currentTime
      val backoff = ArrayBuffer.empty[FiniteDuration]
      Task(backoff += currentTime - start)
        .schedule(TaskSchedule.ExponentialBackoff(100.millis, 2, 5))
        .run
        .await
      assertEquals(backoff.toList, List(0, 100, 300, 700, 1500).map(_.millis))

  test("select's onTimeout fires at exactly its timeout; a value before it wins"):
    timed("select onTimeout"):
      val ch = SyncChannel[Int]()
      val quiet = Async.select(ch.canRead ~~> (_ => "value"), onTimeout(5.seconds)("timeout"))
      assertEquals(quiet, "timeout")
      assertEquals(currentTime, 5.seconds)
      val sender = Future { sleep(2.seconds); ch.send(1) }
      val busy = Async.select(ch.canRead ~~> (v => s"value $v"), onTimeout(3.seconds)("timeout"))
      assertEquals(busy, "value Success(1)")
      assertEquals(currentTime, 7.seconds)
      sender.await
      val again = Async.select(ch.canRead ~~> (_ => "value"), onTimeout(4_000L)("timeout"))
      assertEquals(again, "timeout")
      assertEquals(currentTime, 11.seconds)

  test("a Timer rings at its time, sleep ends at its time, a cancelled timer never rings"):
    timed("timer and sleep"):
      val timer = Timer(3.seconds)
      val late = Timer(1.hour)
      assertEquals(Async.await(timer), true)
      assertEquals(currentTime, 3.seconds)
      late.cancel()
      assertEquals(Async.await(late), false)
      assertEquals(currentTime, 3.seconds)
      sleep(250L)
      assertEquals(currentTime, 3.seconds + 250.millis)
      sleep(1.nano)
      assertEquals(currentTime, 3.seconds + 250.millis + 1.nano)
      sleep(Duration.Zero)
      assertEquals(currentTime, 3.seconds + 250.millis + 1.nano)
      val sleepers = (1 to 100).map(i => Future { sleep(i.seconds); currentTime })
      assertEquals(
        sleepers.map(_.await).toList,
        (1 to 100).map(i => 3.seconds + 250.millis + i.seconds + 1.nano).toList
      )
      assert(Try(Timer(-1L)).isFailure)
