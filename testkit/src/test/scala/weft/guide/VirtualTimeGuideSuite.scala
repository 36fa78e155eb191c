package weft.guide

import java.io.IOException
import scala.concurrent.duration.*
import weft.*
import weft.channels.*
import weft.testkit.*

/** The virtual-time examples of docs/guide/testing.md, run. */
class VirtualTimeGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  // example: virtual-time-timeout
  test("a timeout of an hour fails after exactly an hour, in milliseconds of real time"):
    VirtualTime.run:
      val result = withTimeoutOption(1.hour)(sleep(2.hours))
      assertEquals(result, None)
      assertEquals(currentTime, 1.hour) // exactly: neither 59:59.999 nor 1:00:00.001
  // end

  // example: virtual-time-retry
  test("the call is retried after 1 s, 2 s and 4 s, then succeeds"):
    VirtualTime.run:
      var attempts = Vector.empty[FiniteDuration]
      val policy = Retry(maxRetries = 5, delay = Retry.Delay.Exponential(1.second, 1.minute))
      val reply = retry(policy):
        attempts :+= currentTime // the virtual time of each attempt
        if attempts.size < 4 then throw IOException("down") else "ok"
      assertEquals(reply, "ok")
      assertEquals(attempts, Vector(0.seconds, 1.second, 3.seconds, 7.seconds))
  // end

  // example: virtual-time-advance
  test("a heartbeat every 10 s, looked at when the test chooses"):
    VirtualTime.run:
      val beats = UnboundedChannel[FiniteDuration]()
      val heartbeat = Future:
        while true do
          sleep(10.seconds)
          beats.send(currentTime)
      runUntilIdle() // the heartbeat has started and sleeps; no time has passed
      assertEquals(currentTime, Duration.Zero)
      advanceBy(25.seconds) // it beat at 10 s and 20 s, and sleeps again
      assertEquals(currentTime, 25.seconds)
      assertEquals(List(beats.read().get, beats.read().get), List(10.seconds, 20.seconds))
      // the scope's end cancels the heartbeat
  // end

  // example: virtual-time-deadlock
  test("two fibers, each reading what the other will send first: reported at once"):
    val e = intercept[DeadlockException]:
      VirtualTime.run:
        val toA = SyncChannel[Int]()
        val toB = SyncChannel[Int]()
        val a = Future:
          val n = toA.read().get // waits for b...
          toB.send(n + 1)
        val b = Future:
          val n = toB.read().get // ...which waits for a
          toA.send(n + 1)
        a.await
    val byName = e.fibers.sortBy(_.name) // weft-test-1, weft-test-2, weft-test-main
    val waits = List("a channel read", "a channel read", "a future (await)")
    assertEquals(byName.map(_.waitsOn), waits)
    assert(e.getMessage.contains("weft-test-1 waits on a channel read"), e.getMessage)
  // end

  // example: virtual-time-blocked
  test("Thread.sleep holds virtual time: the scope fails, naming the fiber"):
    val e = intercept[BlockedFiberException]:
      VirtualTime(VirtualTimeConfig(blockedLimit = 200.millis)).run:
        Future(Thread.sleep(60_000)).await // a JDK call: weft's sleep is the one to use
    assertEquals(e.fibers.size, 1)
    assert(e.fibers.head.name.contains("weft-test-1"), e.fibers.head.name)
    assert(e.fibers.head.waitsOn.contains("java.lang.Thread.sleep"), e.fibers.head.waitsOn)
  // end

  test("the deadlock report's message, as the guide shows it"):
    val e = intercept[DeadlockException]:
      VirtualTime.run:
        val toA = SyncChannel[Int]()
        val toB = SyncChannel[Int]()
        val a = Future { toB.send(toA.read().get + 1) }
        val b = Future { toA.send(toB.read().get + 1) }
        a.await
    val m = e.getMessage
    assert(m.startsWith("weft-testkit: deadlock at virtual time 0 s"), m)
    assert(m.contains("weft-test-1 waits on a channel read"), m)
    assert(m.contains("weft-test-main waits on a future (await)"), m)
    assert(m.contains("at weft.internal.channels.CellChannel.read("), m)

  test("the blocked-fiber report's message names the JDK call and its caller"):
    val e = intercept[BlockedFiberException]:
      VirtualTime(VirtualTimeConfig(blockedLimit = 200.millis)).run:
        Future(Thread.sleep(60_000)).await
    val m = e.getMessage
    assert(m.startsWith("weft-testkit: a fiber blocked outside weft for 200 ms"), m)
    assert(
      m.contains("waits on a JDK call (java.lang.Thread.sleep, called at weft.guide."),
      m
    )

  test("advanceBy fires the timers due at its very target before it returns"):
    VirtualTime.run:
      val fired = java.util.concurrent.atomic.AtomicLong(-1L)
      val sleeper = Future:
        sleep(20.seconds)
        fired.set(currentTime.toNanos)
      advanceBy(20.seconds)
      assertEquals(fired.get, 20.seconds.toNanos)
      assertEquals(currentTime, 20.seconds)
      sleeper.await
