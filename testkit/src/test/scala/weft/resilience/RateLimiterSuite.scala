package weft.resilience

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import scala.concurrent.duration.*
import weft.*
import weft.testing.VirtualTesting.scopeTimers
import weft.testkit.*

/**
 * RateLimiter: each algorithm's state machine, blocking, cancellation, load; on virtual time (a
 * limiter made inside `VirtualTime.run` reads its clock and arms its timers there), so every
 * window and refill is checked at its exact instant. The shared timer thread's side is in
 * `RateLimiterThreadsSuite`.
 */
class RateLimiterSuite extends munit.FunSuite, weft.testing.Deadlined:

  // Every test runs under a deadline, so a limiter bug that leaves an acquirer asleep fails its
  // test with a thread dump and the rest of the suite still runs; longer than the 60 s inner
  // deadlines of the load tests, which report first.
  override def testDeadlineSeconds: Int = 75

  def grants(l: RateLimiter, tries: Int): Int = (1 to tries).count(_ => l.tryAcquire())

  test("fixed window: maxOps per window; the next window starts when asked for"):
    VirtualTime.run:
      val l = RateLimiter.fixedWindow(3, 1.second)
      assertEquals(scopeTimers, 0, "no timer before the first permit")
      assertEquals(grants(l, 5), 3)
      assertEquals(scopeTimers, 1, "the window's end")
      sleep(999.millis)
      assertEquals(grants(l, 5), 0, "still the first window")
      sleep(1.milli)
      assertEquals(scopeTimers, 0, "the first window is over")
      assertEquals(grants(l, 5), 3, "the second window starts at 1 s")
      sleep(2500.millis) // 3.5 s: the third window starts now
      assert(l.tryAcquire(2))
      assert(!l.tryAcquire(2), "2 + 2 > 3")
      assert(l.tryAcquire(1))
      sleep(500.millis)
      assert(!l.tryAcquire(1), "the third window lasts until 4.5 s")
      sleep(500.millis)
      assert(l.tryAcquire(3))
      assertEquals(currentTime, 4500.millis)

  test("fixed window: exactly maxOps per window over 1,000 windows"):
    VirtualTime.run:
      val l = RateLimiter.fixedWindow(7, 1.second)
      for w <- 0 until 1000 do
        assertEquals(grants(l, 10), 7, s"window $w")
        sleep(1.second)
      assertEquals(currentTime, 1000.seconds)

  test("fixed window: a window whose timer is late ends at its end all the same"):
    VirtualTime.run:
      val c = Clock.current()
      val late = new Clock:
        def nanoTime(): Long = c.nanoTime()
        def sleepNanos(nanos: Long)(using Async): Unit = c.sleepNanos(nanos)
        def schedule(nanos: Long, task: Runnable): Unit = () // never rings
      val l = RateLimiter.fixedWindow(2, 1.second, late)
      assertEquals(grants(l, 3), 2)
      sleep(999.millis)
      assertEquals(grants(l, 3), 0, "the window lasts until 1 s")
      sleep(1.milli)
      assertEquals(grants(l, 3), 2, "the full window was over: the next one started")

  test("sliding window: at most maxOps in any period of the window's length"):
    VirtualTime.run:
      val l = RateLimiter.slidingWindow(3, 1.second)
      assertEquals(grants(l, 2), 2) // at 0
      sleep(500.millis)
      assertEquals(grants(l, 2), 1) // at 0.5
      sleep(499.millis)
      assertEquals(grants(l, 1), 0, "3 permits in (0, 0.999]")
      sleep(1.milli) // 1.0: the two of 0 expire
      assertEquals(grants(l, 3), 2)
      sleep(499.millis)
      assertEquals(grants(l, 1), 0, "the one of 0.5 expires at 1.5, not before")
      sleep(1.milli)
      assertEquals(grants(l, 3), 1)
      assert(!l.tryAcquire(3))

  test("sliding window: a log larger than its first allocation"):
    VirtualTime.run:
      val l = RateLimiter.slidingWindow(100, 1.second)
      for _ <- 1 to 10 do
        assertEquals(grants(l, 10), 10) // at 0, 0.1, ..., 0.9 s: 100 in all
        sleep(100.millis)
      assertEquals(grants(l, 100), 10, "at 1.0 s only the 10 of 0 s have expired")

  test("token bucket: bursts up to capacity, then one token per interval, never above capacity"):
    VirtualTime.run:
      val l = RateLimiter.tokenBucket(5, 100.millis)
      assertEquals(grants(l, 10), 5)
      sleep(99.millis)
      assertEquals(grants(l, 10), 0)
      sleep(1.milli)
      assertEquals(grants(l, 10), 1)
      sleep(250.millis) // 2.5 tokens
      assertEquals(grants(l, 10), 2)
      sleep(10.seconds) // refilled, capped at the capacity
      assert(l.tryAcquire(5))
      assert(!l.tryAcquire(1), "never more than the capacity")

  test("acquire suspends until the permit is available, and takes it then"):
    for (kind, wakesAt) <- Seq("fixed" -> 1.second, "sliding" -> 1.second, "bucket" -> 500.millis)
    do
      VirtualTime.run:
        val l = kind match
          case "fixed"   => RateLimiter.fixedWindow(2, 1.second)
          case "sliding" => RateLimiter.slidingWindow(2, 1.second)
          case _         => RateLimiter.tokenBucket(2, 500.millis)
        l.acquire(2) // free: returns at once
        assertEquals(currentTime, Duration.Zero, kind)
        val f = Future:
          l.acquire()
          currentTime
        runUntilIdle()
        assert(f.poll().isEmpty, s"$kind: the acquirer sleeps")
        assertEquals(f.await, wakesAt, s"$kind: woken when the permit is available")
        assert(!l.tryAcquire(2), s"$kind: the waiter took one permit of the new window")

  test("a cancelled acquirer takes nothing and leaves no timer"):
    for mk <- Seq[() => RateLimiter](
        () => RateLimiter.fixedWindow(3, 1.second),
        () => RateLimiter.slidingWindow(3, 1.second),
        () => RateLimiter.tokenBucket(3, 1.second)
      )
    do
      VirtualTime.run:
        val l = mk()
        l.acquire(3)
        val timers = scopeTimers
        val waiters = (1 to 4).map(_ => Future(l.acquire()))
        runUntilIdle()
        assert(scopeTimers > timers, s"$l: four acquirers sleep")
        waiters.foreach(_.cancel())
        waiters.foreach: w =>
          assert(w.result.failed.toOption.exists(_.isInstanceOf[CancellationException]))
        runUntilIdle() // their fibers unwind after their results are known
        assertEquals(scopeTimers, timers, s"$l: the cancelled sleeps left a timer")
        assertEquals(currentTime, Duration.Zero)
        sleep(5.seconds)
        assert(l.tryAcquire(3), s"$l: a cancelled waiter took a permit")

  test("an acquire in a cancelled scope throws at once"):
    val l = RateLimiter.tokenBucket(1, 1.second)
    Async.blocking:
      val f = Future:
        summon[Async].group.cancel()
        l.acquire()
      assert(f.result.failed.toOption.exists(_.isInstanceOf[CancellationException]), f.result)
    assert(l.tryAcquire(), "nothing taken")

  // Virtual time stands still while the fibers run (none of them waits): a frozen clock.
  test("many fibers on a frozen clock: exactly maxOps permits, for every algorithm"):
    for (name, mk) <- Seq[(String, () => RateLimiter)](
        "fixed" -> (() => RateLimiter.fixedWindow(500, 1.second)),
        "sliding" -> (() => RateLimiter.slidingWindow(500, 1.second)),
        "bucket" -> (() => RateLimiter.tokenBucket(500, 1.second))
      )
    do
      withinDeadline(60, s"rate-$name-"):
        val granted = AtomicInteger()
        VirtualTime.run:
          val l = mk()
          (1 to 8).map(i =>
            Future:
              for k <- 1 to 400 do
                if l.tryAcquire(1 + (i + k) % 2) then granted.addAndGet(1 + (i + k) % 2)
          ).awaitAll: Unit
          assertEquals(currentTime, Duration.Zero)
        // the requests of 1 and 2 permits may leave the last permit unused, never overshoot
        assert(granted.get >= 499 && granted.get <= 500, s"$name: ${granted.get} of 500")

  // Eight fibers ask 10 times each per virtual millisecond: every 10 ms window is asked for far
  // more than its 50 permits, and starts at the first request after the previous one, at once.
  test("fixed window: never more than maxOps per window, many fibers while the clock moves"):
    withinDeadline(60, "rate-moving-"):
      val perWindow = java.util.concurrent.ConcurrentHashMap[Long, AtomicInteger]()
      VirtualTime.run:
        val l = RateLimiter.fixedWindow(50, 10.millis)
        (1 to 8).map(_ =>
          Future:
            for _ <- 1 to 200 do
              val w = currentTime.toMillis / 10
              for _ <- 1 to 10 do
                if l.tryAcquire() then
                  perWindow.computeIfAbsent(w, _ => AtomicInteger()).incrementAndGet(): Unit
              sleep(1.milli)
        ).awaitAll: Unit
        assertEquals(currentTime, 200.millis)
      val counts = (0L until 20L).map(w => Option(perWindow.get(w)).fold(0)(_.get))
      assertEquals(perWindow.size, 20, "twenty windows of 10 ms")
      assertEquals(counts, Seq.fill(20)(50), "exactly maxOps in every window")

  test("blocking acquires from many fibers all complete, at exactly the refill rate"):
    withinDeadline(60, "rate-blocking-"):
      val n = AtomicLong()
      VirtualTime.run:
        val l = RateLimiter.tokenBucket(10, 1.milli)
        (1 to 8).map(_ => Future(for _ <- 1 to 25 do l.run(n.incrementAndGet()))).awaitAll: Unit
        // 200 permits: 10 from the full bucket at 0, then one per millisecond
        assertEquals(currentTime, 190.millis)
      assertEquals(n.get, 200L)

  test("run and tryRun wrap an operation"):
    VirtualTime.run:
      val l = RateLimiter.fixedWindow(1, 1.second)
      assertEquals(l.tryRun(1), Some(1))
      assertEquals(l.tryRun(2), None)
      sleep(1.second)
      assertEquals(l.run("ran"), "ran")
      assertEquals(currentTime, 1.second)

  test("bad input is rejected at the call"):
    def rejects(what: String)(body: => Any): Unit =
      val e = intercept[IllegalArgumentException](body)
      assert(e.getMessage.contains(what), e.getMessage)
    rejects("maxOps")(RateLimiter.fixedWindow(0, 1.second))
    rejects("window")(RateLimiter.fixedWindow(1, Duration.Zero))
    rejects("window")(RateLimiter.slidingWindow(1, -1.second))
    rejects("maxOps")(RateLimiter.slidingWindow(-1, 1.second))
    rejects("capacity")(RateLimiter.tokenBucket(0, 1.second))
    rejects("refillInterval")(RateLimiter.tokenBucket(1, 0.nanos))
    rejects("capacity * refillInterval")(RateLimiter.tokenBucket(Int.MaxValue, 365.days))
    val l = RateLimiter.fixedWindow(3, 1.second)
    rejects("permits")(l.tryAcquire(0))
    rejects("permits")(l.tryAcquire(4))
    rejects("permits")(Async.blocking(l.acquire(-1)))
