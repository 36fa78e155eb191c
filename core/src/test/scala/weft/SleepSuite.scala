package weft

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import scala.util.Failure
import weft.*
import weft.testing.TimeTesting.*

/** sleep: lower bounds, cancellation that frees the timer, and no thread per sleeper. */
class SleepSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("sleep(100) takes at least 100 ms"):
    val (_, ms) = timed(Async.blocking(sleep(100)))
    assert(ms >= 100, s"slept $ms ms")

  test("sleep(d) with a FiniteDuration takes at least d"):
    val (_, ms) = timed(Async.blocking(sleep(70.millis)))
    assert(ms >= 70, s"slept $ms ms")

  test("sleep(0) returns"):
    Async.blocking(sleep(0))

  test("sequential sleeps add up"):
    val (_, ms) = timed(Async.blocking((1 to 5).foreach(_ => sleep(20))))
    assert(ms >= 100, s"slept $ms ms")

  test("a negative sleep is an IllegalArgumentException"):
    Async.blocking:
      intercept[IllegalArgumentException](sleep(-1))
      intercept[IllegalArgumentException](sleep(-1.second))

  test("cancelling a sleeping future stops it and frees its timer"):
    val before = pendingTimers
    val after = AtomicInteger()
    Async.blocking:
      Async.group:
        val f = Future:
          sleep(60_000)
          after.incrementAndGet()
        awaitCondition("the sleep's timer is scheduled")(pendingTimers > before)
        f.cancel()
        assert(f.result.failed.get.isInstanceOf[CancellationException])
    // the group has joined the fiber, whose sleep cancelled its timer on the way out
    assertEquals(after.get, 0)
    assert(pendingTimers <= before, s"pending $pendingTimers > $before")

  test("a sleep in a cancelled scope throws CancellationException at once"):
    Async.blocking:
      val f = Future:
        Thread.sleep(0)
        sleep(60_000)
      f.cancel()
      assert(f.result match
        case Failure(_: CancellationException) => true
        case _                                 => false
      )

  test("10,000 concurrent sleepers hold no platform thread each"):
    val before = platformThreads
    val woke = AtomicInteger()
    val peak = AtomicInteger()
    Async.blocking:
      val fs = (1 to 10_000).map: _ =>
        Future:
          sleep(300)
          woke.incrementAndGet()
      awaitCondition("all sleepers scheduled")(pendingTimers >= 10_000 || woke.get > 0)
      peak.set(platformThreads)
      fs.awaitAll
    assertEquals(woke.get, 10_000)
    assert(peak.get - before <= 4, s"platform threads went from $before to ${peak.get}")
