package weft.testkit

import java.util.concurrent.ThreadLocalRandom
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import weft.*
import weft.channels.*
import weft.testing.Deadlined

/**
 * What a virtual clock guarantees: when it moves (only when every fiber waits), what `advanceBy`
 * and `runUntilIdle` wait for, and that a fiber woken by a value sees the time unchanged.
 */
class VirtualClockSuite extends Deadlined:

  test("the clock starts at zero and moves only by the timers"):
    VirtualTime.run:
      assertEquals(currentTime, Duration.Zero)
      var x = 0L
      for i <- 1 to 100_000 do x += i // work takes no virtual time
      assertEquals(currentTime, Duration.Zero)
      assertEquals(x, 5_000_050_000L)

  test("advanceBy returns at exactly now + d, after the timers due by then fired"):
    VirtualTime.run:
      val early = Future { sleep(3.seconds); currentTime }
      val onTime = Future { sleep(10.seconds); currentTime }
      val late = Future { sleep(10.seconds + 1.nano); currentTime }
      advanceBy(5.seconds)
      assertEquals(currentTime, 5.seconds)
      assertEquals(early.poll(), Some(scala.util.Success(3.seconds)))
      assertEquals(onTime.poll(), None)
      advanceBy(5.seconds) // a timer due at the target fires before advanceBy returns
      assertEquals(currentTime, 10.seconds)
      assertEquals(onTime.poll(), Some(scala.util.Success(10.seconds)))
      assertEquals(late.poll(), None)
      advanceBy(Duration.Zero)
      assertEquals(currentTime, 10.seconds)
      assertEquals(late.await, 10.seconds + 1.nano)

  test("advanceBy waits for the fibers a timer woke to wait again"):
    VirtualTime.run:
      val steps = AtomicInteger(0)
      val worker = Future:
        sleep(2.seconds)
        // Woken at 2 s, the target of advanceBy: its chain of value hand-offs all happens before
        // advanceBy returns.
        val ch = SyncChannel[Int]()
        val helper = Future((1 to 100).foreach(i => ch.send(i)))
        for _ <- 1 to 100 do
          ch.read()
          steps.incrementAndGet()
        helper.await
        sleep(1.hour)
      advanceBy(2.seconds)
      assertEquals(steps.get, 100)
      worker.cancel()

  test("runUntilIdle lets every fiber run until it waits, without moving the clock"):
    VirtualTime.run:
      val started = AtomicInteger(0)
      val ch = SyncChannel[Int]()
      val readers = (1 to 20).map: _ =>
        Future:
          started.incrementAndGet()
          ch.read().get
      val sleeper = Future { sleep(1.second); "slept" }
      runUntilIdle()
      assertEquals(started.get, 20)
      assertEquals(currentTime, Duration.Zero)
      assertEquals(sleeper.poll(), None)
      for i <- 1 to 20 do ch.send(i)
      assertEquals(readers.map(_.await).sum, 210)
      assertEquals(currentTime, Duration.Zero)
      assertEquals(sleeper.await, "slept")
      assertEquals(currentTime, 1.second)

  test("a fiber woken by a value sees the time unchanged, while other timers are due"):
    VirtualTime.run:
      val ch = SyncChannel[FiniteDuration]()
      // A fiber that always has a timer 1 ns ahead: if the clock moved while a woken fiber has
      // yet to run, the reader would see a later time than its sender.
      val busy = Future(while true do sleep(1.nano))
      val rounds = 2_000
      val sender = Future:
        val r = ThreadLocalRandom.current()
        for _ <- 1 to rounds do
          if r.nextBoolean() then sleep(r.nextLong(1, 5).nanos)
          ch.send(currentTime)
      for i <- 1 to rounds do
        val sent = ch.read().get
        assertEquals(currentTime, sent, s"round $i")
      sender.await
      busy.cancel()

  test("the timers due at one instant all fire before any fiber sees a later time"):
    VirtualTime.run:
      val woken = AtomicInteger(0)
      val n = 50
      val fibers = (1 to n).map: _ =>
        Future:
          sleep(1.second)
          val seen = currentTime
          woken.incrementAndGet()
          sleep(1.nano)
          (seen, woken.get)
      for (seen, count) <- fibers.map(_.await) do
        assertEquals(seen, 1.second)
        assertEquals(count, n)
      assertEquals(currentTime, 1.second + 1.nano)

  test("nested scopes inside the scope: Async.group and supervised count virtual time"):
    VirtualTime.run:
      val g = Async.group:
        val a = Future { sleep(2.seconds); 2 }
        val b = Future { sleep(3.seconds); 3 }
        a.await + b.await
      assertEquals(g, 5)
      assertEquals(currentTime, 3.seconds)
      val e = intercept[IllegalStateException]:
        supervised:
          Future(sleep(1.hour)) // cancelled when its sibling fails
          Future { sleep(4.seconds); throw IllegalStateException("child") }
          sleep(1.day)
      assertEquals(e.getMessage, "child")
      assertEquals(currentTime, 7.seconds)

  test("advanceBy from a future of the scope, while the body waits"):
    VirtualTime.run:
      val sleeper = Future { sleep(1.minute); currentTime }
      val driver = Future { advanceBy(30.seconds); currentTime }
      assertEquals(driver.await, 30.seconds)
      assertEquals(sleeper.await, 1.minute)

  test("a fiber blocked in a JDK call holds the clock still until it returns"):
    VirtualTime.run:
      val sleeper = Future { sleep(1.second); currentTime }
      val blocked = Future:
        Thread.sleep(50) // real time: the sleeper's timer must not fire meanwhile
        currentTime
      assertEquals(blocked.await, Duration.Zero)
      assertEquals(sleeper.await, 1.second)

  test("bad input: a negative advanceBy, a bad config, a null config"):
    VirtualTime.run:
      val e = intercept[IllegalArgumentException](advanceBy(-1.nano))
      assert(e.getMessage.contains("advanceBy"), e.getMessage)
      assertEquals(currentTime, Duration.Zero)
      intercept[IllegalArgumentException](sleep(-1.second))
    val limit = intercept[IllegalArgumentException](VirtualTimeConfig(blockedLimit = Duration.Zero))
    assert(limit.getMessage.contains("blockedLimit"), limit.getMessage)
    val grace = intercept[IllegalArgumentException](VirtualTimeConfig(deadlockGrace = -1.milli))
    assert(grace.getMessage.contains("deadlockGrace"), grace.getMessage)
    intercept[IllegalArgumentException](VirtualTime(null))
