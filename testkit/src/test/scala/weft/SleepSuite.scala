package weft

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import scala.util.Failure
import weft.*
import weft.testing.VirtualTesting.scopeTimers
import weft.testkit.*

/**
 * sleep: how long it takes (exactly, on virtual time), cancellation that frees the timer. That
 * sleepers hold no platform thread is in `SleepThreadsSuite`.
 */
class SleepSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("sleep(100) takes exactly 100 ms"):
    VirtualTime.run:
      sleep(100)
      assertEquals(currentTime, 100.millis)

  test("sleep(d) with a FiniteDuration takes exactly d"):
    VirtualTime.run:
      sleep(70.millis)
      assertEquals(currentTime, 70.millis)
      sleep(1500.micros)
      assertEquals(currentTime, 71500.micros)

  test("sleep(0) returns"):
    VirtualTime.run:
      sleep(0)
      assertEquals(currentTime, Duration.Zero)
      assertEquals(scopeTimers, 0)

  test("sequential sleeps add up"):
    VirtualTime.run:
      (1 to 5).foreach(_ => sleep(20))
      assertEquals(currentTime, 100.millis)

  test("a negative sleep is an IllegalArgumentException"):
    Async.blocking:
      intercept[IllegalArgumentException](sleep(-1))
      intercept[IllegalArgumentException](sleep(-1.second))

  test("cancelling a sleeping future stops it and frees its timer"):
    val after = AtomicInteger()
    VirtualTime.run:
      Async.group:
        val f = Future:
          sleep(60_000)
          after.incrementAndGet()
        runUntilIdle()
        assertEquals(scopeTimers, 1, "the sleep's timer is scheduled")
        f.cancel()
        assert(f.result.failed.get.isInstanceOf[CancellationException])
      // the group has joined the fiber, whose sleep cancelled its timer on the way out
      assertEquals(scopeTimers, 0)
      assertEquals(currentTime, Duration.Zero)
    assertEquals(after.get, 0)

  test("a sleep in a cancelled scope throws CancellationException at once"):
    VirtualTime.run:
      val f = Future:
        Thread.sleep(0)
        sleep(60_000)
      f.cancel()
      assert(f.result match
        case Failure(_: CancellationException) => true
        case _                                 => false
      )
      assertEquals(currentTime, Duration.Zero)

  test("10,000 concurrent sleepers all wake at the same instant"):
    val woke = AtomicInteger()
    VirtualTime.run:
      val fs = (1 to 10_000).map: _ =>
        Future:
          sleep(300)
          assertEquals(currentTime, 300.millis)
          woke.incrementAndGet()
      fs.awaitAll
      assertEquals(currentTime, 300.millis)
    assertEquals(woke.get, 10_000)
