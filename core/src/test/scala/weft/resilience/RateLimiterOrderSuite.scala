package weft.resilience

import java.util.concurrent.atomic.AtomicBoolean
import scala.concurrent.duration.*
import weft.{Async, await}

/**
 * RateLimiter outcomes that depend on the order of concurrent steps, pinned deterministically
 * with a clock that runs a step of another thread inside a clock read; and the waits the
 * algorithms return.
 */
class RateLimiterOrderSuite extends munit.FunSuite, weft.testing.StressChecks:

  /** A manual clock that runs `during` once, at the next clock read after `arm`. */
  final class HookedClock extends Clock:
    val manual = ManualClock()
    @volatile private var during: (() => Unit) | Null = null
    def arm(f: () => Unit): Unit = during = f
    def nanoTime(): Long =
      val now = manual.nanoTime()
      val f = during
      if f != null then
        during = null
        f()
      now
    def sleepNanos(nanos: Long)(using Async): Unit = manual.sleepNanos(nanos)
    def schedule(nanos: Long, task: Runnable): Unit = () // the window ends by its end instant

  /** Starts `body` on a platform thread and returns once it finished or blocks, within 10 s. */
  def startUntilDoneOrBlocked(body: => Unit): Thread =
    val t = Thread.ofPlatform().start(() => body)
    val deadline = System.nanoTime() + 10.seconds.toNanos
    while t.getState != Thread.State.TERMINATED && t.getState != Thread.State.WAITING do
      if System.nanoTime() - deadline > 0L then fail(s"the other taker neither ran nor blocked")
      Thread.onSpinWait()
    t

  test("fixed window: a window installed after the clock moved on ends a window after that"):
    // The installer reads the clock (the hook runs inside that read), the clock moves 400 ms,
    // and another caller asks for the permit the installer's request of 2 could not use. Every
    // sequential order must agree: either that permit came from the old window, and then the
    // new window began after the clock moved (it lasts until 2.4 s), or it came from the new
    // window (which may then end at 2.0 s). A window that ends at 2.0 s although the other
    // caller's permit was counted in the old one has no sequential order.
    withinDeadline(30, "rate-order-"):
      val c = HookedClock()
      val l = RateLimiter.fixedWindow(3, 1.second, c)
      assert(l.tryAcquire(2)) // the window [1 s, 2 s): 1 permit left
      c.manual.advance(1.second)
      val otherGot = AtomicBoolean()
      var other: Thread | Null = null
      c.arm: () =>
        c.manual.advance(400.millis)
        other = startUntilDoneOrBlocked(otherGot.set(l.tryAcquire(1)))
      assert(l.tryAcquire(2), "the old window is over: a new one with these 2")
      other.nn.join(10_000)
      assert(!other.nn.isAlive, "the other taker finished")
      assert(otherGot.get, "one permit was left (old window) or one is free (new window)")
      val at1400 = l.tryAcquire(1) // a new window holds 2 or 3 permits now
      c.manual.advance(800.millis)
      val at2200 = l.tryAcquire(1)
      assert(
        Set((false, true), (true, false)).contains((at1400, at2200)),
        s"at 1.4 s: $at1400, at 2.2 s: $at2200; no sequential order gives both true"
      )

  test("sliding window: the wait lasts until enough permits, taken at different instants, expire"):
    withinDeadline(30, "rate-sliding-wait-"):
      val c = ManualClock()
      val waits = java.util.concurrent.ConcurrentLinkedQueue[Long]()
      val recording = new Clock:
        def nanoTime(): Long = c.nanoTime()
        def sleepNanos(nanos: Long)(using Async): Unit =
          waits.add(nanos)
          c.sleepNanos(nanos)
        def schedule(nanos: Long, task: Runnable): Unit = c.schedule(nanos, task)
      def lastWait = waits.toArray.last.asInstanceOf[Long].nanos.toMillis
      val l = RateLimiter.slidingWindow(3, 1.second, recording)
      assert(l.tryAcquire()) // at 0 s
      c.advance(300.millis)
      assert(l.tryAcquire()) // at 0.3 s
      c.advance(300.millis)
      assert(l.tryAcquire()) // at 0.6 s
      c.advance(100.millis) // 0.7 s: full
      Async.blocking:
        val one = weft.Future(l.acquire(1))
        weft.testing.TimeTesting.awaitCondition("the acquirer of 1 sleeps")(c.sleeping == 1)
        assertEquals(lastWait, 300L, "one permit: until the oldest (0 s) expires at 1.0 s")
        c.advance(300.millis)
        one.await
        // the log is 0.3, 0.6, 1.0 s: two permits need the two oldest gone, at 1.6 s
        val two = weft.Future(l.acquire(2))
        weft.testing.TimeTesting.awaitCondition("the acquirer of 2 sleeps")(c.sleeping == 1)
        assertEquals(lastWait, 600L, "two permits: until the second oldest (0.6 s) expires")
        c.advance(600.millis)
        two.await
      assertEquals(waits.size, 2, "each acquirer woke once, when its permits were free")
