package weft.resilience

import scala.concurrent.duration.*
import weft.*
import weft.testing.TimeTesting.{awaitCondition, pendingTimers}

/**
 * Rate limiters on the system clock and the shared timer thread: what virtual time cannot show
 * (the rest of their tests run on virtual time: `RateLimiterSuite`, in the test kit's module).
 */
class RateLimiterThreadsSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("limiters start no thread, and a fixed window's timer ends with its window"):
    Async.blocking(sleep(1)) // the shared timer thread exists before counting
    val threads = weft.testing.TimeTesting.platformThreads
    val timers = pendingTimers
    val limiters = (1 to 100).map: i =>
      i % 3 match
        case 0 => RateLimiter.fixedWindow(5, 20.millis)
        case 1 => RateLimiter.slidingWindow(5, 20.millis)
        case _ => RateLimiter.tokenBucket(5, 20.millis)
    Async.blocking:
      limiters.foreach(l => for _ <- 1 to 7 do l.acquire()) // waits: 2 beyond each limit
    assertEquals(weft.testing.TimeTesting.platformThreads, threads)
    // the 34 fixed windows armed a timer each; all ring within 20 ms of the last permit
    awaitCondition("the windows' timers rang")(pendingTimers <= timers)

  test("on the system clock, a cancelled acquirer frees its timer"):
    val l = RateLimiter.tokenBucket(1, 1.hour)
    Async.blocking:
      l.acquire()
      val before = pendingTimers
      val f = Future(l.acquire())
      awaitCondition("the waiter's timer")(pendingTimers > before)
      f.cancel()
      f.result: Unit
    awaitCondition("the waiter's timer freed")(pendingTimers == 0)
