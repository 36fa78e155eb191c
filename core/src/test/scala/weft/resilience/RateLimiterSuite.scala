package weft.resilience

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import scala.concurrent.duration.*
import weft.*
import weft.testing.TimeTesting.{awaitCondition, pendingTimers}

/** RateLimiter: each algorithm's state machine on a manual clock, blocking, cancellation, load. */
class RateLimiterSuite extends munit.FunSuite, weft.testing.Deadlined:

  // Every test runs under a deadline, so a limiter bug that leaves an acquirer asleep fails its
  // test with a thread dump and the rest of the suite still runs; longer than the 60 s inner
  // deadlines of the load tests, which report first.
  override def testDeadlineSeconds: Int = 75

  def grants(l: RateLimiter, tries: Int): Int = (1 to tries).count(_ => l.tryAcquire())

  test("fixed window: maxOps per window; the next window starts when asked for"):
    val c = ManualClock()
    val l = RateLimiter.fixedWindow(3, 1.second, c)
    assertEquals(c.pending, 0, "no timer before the first permit")
    assertEquals(grants(l, 5), 3)
    assertEquals(c.pending, 1, "the window's end")
    c.advance(999.millis)
    assertEquals(grants(l, 5), 0, "still the first window")
    c.advance(1.milli)
    assertEquals(c.pending, 0, "the first window is over")
    assertEquals(grants(l, 5), 3, "the second window starts at 1 s")
    c.advance(2500.millis) // 3.5 s: the third window starts now
    assert(l.tryAcquire(2))
    assert(!l.tryAcquire(2), "2 + 2 > 3")
    assert(l.tryAcquire(1))
    c.advance(500.millis)
    assert(!l.tryAcquire(1), "the third window lasts until 4.5 s")
    c.advance(500.millis)
    assert(l.tryAcquire(3))

  test("fixed window: a window whose timer is late ends at its end all the same"):
    val c = ManualClock()
    val late = new Clock:
      def nanoTime(): Long = c.nanoTime()
      def sleepNanos(nanos: Long)(using Async): Unit = c.sleepNanos(nanos)
      def schedule(nanos: Long, task: Runnable): Unit = () // never rings
    val l = RateLimiter.fixedWindow(2, 1.second, late)
    assertEquals(grants(l, 3), 2)
    c.advance(1.second)
    assertEquals(grants(l, 3), 2, "the full window was over: the next one started")

  test("sliding window: at most maxOps in any period of the window's length"):
    val c = ManualClock()
    val l = RateLimiter.slidingWindow(3, 1.second, c)
    assertEquals(grants(l, 2), 2) // at 0
    c.advance(500.millis)
    assertEquals(grants(l, 2), 1) // at 0.5
    c.advance(499.millis)
    assertEquals(grants(l, 1), 0, "3 permits in (0, 0.999]")
    c.advance(1.milli) // 1.0: the two of 0 expire
    assertEquals(grants(l, 3), 2)
    c.advance(499.millis)
    assertEquals(grants(l, 1), 0, "the one of 0.5 expires at 1.5, not before")
    c.advance(1.milli)
    assertEquals(grants(l, 3), 1)
    assert(!l.tryAcquire(3))

  test("sliding window: a log larger than its first allocation"):
    val c = ManualClock()
    val l = RateLimiter.slidingWindow(100, 1.second, c)
    for _ <- 1 to 10 do
      assertEquals(grants(l, 10), 10) // at 0, 0.1, ..., 0.9 s: 100 in all
      c.advance(100.millis)
    assertEquals(grants(l, 100), 10, "at 1.0 s only the 10 of 0 s have expired")

  test("token bucket: bursts up to capacity, then one token per interval, never above capacity"):
    val c = ManualClock()
    val l = RateLimiter.tokenBucket(5, 100.millis, c)
    assertEquals(grants(l, 10), 5)
    c.advance(99.millis)
    assertEquals(grants(l, 10), 0)
    c.advance(1.milli)
    assertEquals(grants(l, 10), 1)
    c.advance(250.millis) // 2.5 tokens
    assertEquals(grants(l, 10), 2)
    c.advance(10.seconds) // refilled, capped at the capacity
    assert(l.tryAcquire(5))
    assert(!l.tryAcquire(1), "never more than the capacity")

  test("acquire suspends until the permit is available, and takes it then"):
    for l0 <- Seq("fixed", "sliding", "bucket") do
      val c = ManualClock()
      val l = l0 match
        case "fixed"   => RateLimiter.fixedWindow(2, 1.second, c)
        case "sliding" => RateLimiter.slidingWindow(2, 1.second, c)
        case _         => RateLimiter.tokenBucket(2, 500.millis, c)
      val done = AtomicInteger()
      Async.blocking:
        l.acquire(2) // free: returns at once
        val f = Future:
          l.acquire()
          done.incrementAndGet()
        awaitCondition(s"$l0: the acquirer sleeps")(c.sleeping == 1)
        assertEquals(done.get, 0)
        c.advance(1.second)
        weft.testing.Waits.within(f, s"$l0: the acquirer woken by the clock's advance")
      assertEquals(done.get, 1, l0)
      assert(!l.tryAcquire(2), s"$l0: the waiter took one permit of the new window")

  test("a cancelled acquirer takes nothing and leaves no timer"):
    for mk <- Seq[Clock => RateLimiter](
        RateLimiter.fixedWindow(3, 1.second, _),
        RateLimiter.slidingWindow(3, 1.second, _),
        RateLimiter.tokenBucket(3, 1.second, _)
      )
    do
      val c = ManualClock()
      val l = mk(c)
      Async.blocking:
        l.acquire(3)
        val waiters = (1 to 4).map(_ => Future(l.acquire()))
        awaitCondition("four acquirers sleep")(c.sleeping == 4)
        waiters.foreach(_.cancel())
        waiters.foreach: w =>
          assert(w.result.failed.toOption.exists(_.isInstanceOf[CancellationException]))
        awaitCondition("sleepers gone")(c.sleeping == 0)
      c.advance(5.seconds)
      assert(l.tryAcquire(3), s"$l: a cancelled waiter took a permit")
    // on the system clock, a cancelled waiter frees its timer
    val l = RateLimiter.tokenBucket(1, 1.hour)
    Async.blocking:
      l.acquire()
      val before = pendingTimers
      val f = Future(l.acquire())
      awaitCondition("the waiter's timer")(pendingTimers > before)
      f.cancel()
      f.result: Unit
    awaitCondition("the waiter's timer freed")(pendingTimers == 0)

  test("an acquire in a cancelled scope throws at once"):
    val l = RateLimiter.tokenBucket(1, 1.second)
    Async.blocking:
      val f = Future:
        summon[Async].group.cancel()
        l.acquire()
      assert(f.result.failed.toOption.exists(_.isInstanceOf[CancellationException]), f.result)
    assert(l.tryAcquire(), "nothing taken")

  test("many fibers on a frozen clock: exactly maxOps permits, for every algorithm"):
    for (name, mk) <- Seq[(String, Clock => RateLimiter)](
        "fixed" -> (RateLimiter.fixedWindow(500, 1.second, _)),
        "sliding" -> (RateLimiter.slidingWindow(500, 1.second, _)),
        "bucket" -> (RateLimiter.tokenBucket(500, 1.second, _))
      )
    do
      withinDeadline(60, s"rate-$name-"):
        val c = ManualClock()
        val l = mk(c)
        val granted = AtomicInteger()
        Async.blocking:
          (1 to 8).map(i =>
            Future:
              for k <- 1 to 400 do
                if l.tryAcquire(1 + (i + k) % 2) then granted.addAndGet(1 + (i + k) % 2)
          ).awaitAll: Unit
        // the requests of 1 and 2 permits may leave the last permit unused, never overshoot
        assert(granted.get >= 499 && granted.get <= 500, s"$name: ${granted.get} of 500")

  test("fixed window: never more than maxOps per window, many fibers while the clock moves"):
    withinDeadline(60, "rate-moving-"):
      val c = ManualClock()
      val l = RateLimiter.fixedWindow(50, 10.millis, c)
      val granted = AtomicInteger()
      val stop = java.util.concurrent.atomic.AtomicBoolean()
      Async.blocking:
        val fibers = (1 to 8).map(_ =>
          Future:
            var k = 0
            while !stop.get && k < 5_000_000 do
              if l.tryAcquire() then granted.incrementAndGet(): Unit
              k += 1
              if k % 16 == 0 then Thread.`yield`() // let the fiber moving the clock run
        )
        // The clock moves on a platform thread: a virtual thread moving it waited in the
        // scheduler's queue behind the yielding fibers until they had all finished (seen in CI).
        val mover = Thread.ofPlatform().start: () =>
          for _ <- 1 to 200 do
            c.advance(1.milli)
            Thread.sleep(0, 50_000)
        mover.join()
        stop.set(true)
        fibers.awaitAll: Unit
      // each window lasts at least 10 ms: in 200 ms at most 21 windows began
      assert(granted.get <= 50 * 21, s"${granted.get} permits in 21 windows")
      assert(granted.get > 50, s"${granted.get}: the windows never turned")

  test("blocking acquires from many fibers all complete on the system clock"):
    withinDeadline(60, "rate-blocking-"):
      val l = RateLimiter.tokenBucket(10, 1.milli)
      val n = AtomicLong()
      val t0 = System.nanoTime()
      Async.blocking:
        (1 to 8).map(_ => Future(for _ <- 1 to 25 do l.run(n.incrementAndGet()))).awaitAll: Unit
      val elapsed = System.nanoTime() - t0
      assertEquals(n.get, 200L)
      // a lower bound only: 200 permits from 10 tokens and 1 per ms take at least 190 ms
      assert(elapsed >= 189_000_000L, s"200 permits in ${elapsed / 1_000_000} ms")

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

  test("run and tryRun wrap an operation"):
    val c = ManualClock()
    val l = RateLimiter.fixedWindow(1, 1.second, c)
    assertEquals(l.tryRun(1), Some(1))
    assertEquals(l.tryRun(2), None)
    c.advance(1.second)
    assertEquals(Async.blocking(l.run("ran")), "ran")

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
