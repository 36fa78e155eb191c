package weft.storm

import java.util.concurrent.CancellationException

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import scala.util.Success
import weft.*
import weft.channels.{BufferedChannel, ChannelClosed, ChannelFailedException, SyncChannel}
import weft.keyed.Sequentially
import weft.testing.Storm
import weft.testing.TimeTesting.awaitCondition
import weft.testing.Storm.Outcome
import weft.testing.Stress
import weft.internal.futures.CoreFuture

/**
 * Random cancels and timeouts around every blocking operation (ADR 0006): permits conserved,
 * resources released exactly once, values conserved exactly, listeners, timers and threads
 * back to zero, every call completed exactly once. `Storm.ops` calls per storm.
 */
class CancellationStormSuite extends munit.FunSuite, weft.testing.StressChecks:

  override val munitTimeout = 5.minutes

  /** The checks every storm shares: each call ended once, no thread of it is left. */
  def assertStormClean(name: String, r: Storm.Report): Unit =
    println(s"storm $name: $r")
    assertEquals(r.notExactlyOnce.take(5), Nil, s"calls not completed exactly once ($r)")
    assertEquals(r.count(Outcome.Failed), 0, s"calls failed with an unexpected error ($r)")
    assertEquals(r.aliveThreads.take(3), Nil, s"threads outlived their scope ($r)")
    assert(r.count(Outcome.Returned) > 0, s"no call ever finished, the storm tested nothing ($r)")

  test("semaphore: permits conserved, never more holders than permits".tag(Stress.tag)):
    withinDeadline(240, "storm-semaphore"):
      val s = Semaphore(2)
      val inside = AtomicInteger()
      val most = AtomicInteger()
      val r = Storm.run(fibers = 6): i =>
        s.withPermit:
          val now = inside.incrementAndGet()
          most.accumulateAndGet(now, math.max)
          try if i % 4 == 0 then sleep(1) else Fiber.yieldNow()
          finally inside.decrementAndGet(): Unit
      assertStormClean("semaphore", r)
      assert(most.get <= 2, s"${most.get} holders of 2 permits")
      assertEquals((s.available, s.waiting), (2, 0), s"permits lost ($r)")

  test("semaphore, every way to wait: withPermit, acquire, tryAcquire, selects and timers".tag(
    Stress.tag
  )):
    // Many fibers on few permits, so most calls queue; each call is given up at random (timeout,
    // cancel, none) while it waits, while it holds the permit, or as a release hands it over.
    withinDeadline(240, "storm-semaphore-ways"):
      val s = Semaphore(3)
      val inside = AtomicInteger()
      val most = AtomicInteger()
      def hold(using Async): Unit =
        val now = inside.incrementAndGet()
        most.accumulateAndGet(now, math.max)
        try Fiber.yieldNow()
        finally inside.decrementAndGet(): Unit
      val r = Storm.run(fibers = 16, seed = 7): i =>
        i % 5 match
          case 0 => s.withPermit(hold)
          case 1 =>
            val g = s.acquire()
            try hold
            finally g.close()
          case 2 =>
            s.tryAcquire() match
              case Some(g) =>
                try hold
                finally g.close()
              case None => Fiber.yieldNow()
          case 3 =>
            val t = Timer(i % 2)
            try
              Async.select(s.acquiring ~~> (g => Some(g)), t ~~> (_ => None)) match
                case Some(g) =>
                  try hold
                  finally g.close()
                case None => ()
            finally t.cancel()
          case _ =>
            val g = Async.await(Async.race(s.acquiring, s.acquiring.map(identity)))
            try hold
            finally g.close()
      assertStormClean("semaphore-ways", r)
      assert(most.get <= 3, s"${most.get} holders of 3 permits")
      awaitCondition("losing select listeners dropped")(s.waiting == 0)
      assertEquals((s.available, s.waiting), (3, 0), s"permits lost ($r)")

  test("rate limiter: a cancelled acquirer takes nothing, no timer left".tag(Stress.tag)):
    // Permits are counted where they are granted; tokens refill at a known rate, so a storm in
    // which given-up acquirers took permits would grant more than the bucket can have given.
    withinDeadline(240, "storm-rate-limiter"):
      val limiter = weft.resilience.RateLimiter.tokenBucket(4, 200.micros)
      val granted = AtomicInteger()
      val t0 = System.nanoTime()
      val r = Storm.run(fibers = 8, seed = 11): i =>
        if i % 3 == 0 then
          if limiter.tryAcquire() then granted.incrementAndGet(): Unit
        else
          limiter.acquire(1 + i % 2)
          granted.addAndGet(1 + i % 2): Unit
      val elapsed = System.nanoTime() - t0
      assertStormClean("rate-limiter", r)
      val most = 4 + elapsed / 200_000L + 1
      assert(granted.get <= most, s"${granted.get} permits granted, at most $most possible ($r)")
      awaitCondition("the sleeps of given-up acquirers freed")(
        weft.testing.TimeTesting.pendingTimers == 0
      )

  test("circuit breaker: cancelled calls count as nothing and free their probe places".tag(
    Stress.tag
  )):
    withinDeadline(240, "storm-breaker"):
      import weft.resilience.*
      val b = CircuitBreaker(
        CircuitBreakerConfig(
          window = CircuitBreakerConfig.Window.Count(10),
          minimumCalls = 5,
          waitInOpen = 1.milli,
          halfOpenCalls = 2
        )
      )
      val r = Storm.run(fibers = 8, seed = 13): i =>
        try b.run(if i % 3 == 0 then throw IllegalStateException("down") else Fiber.yieldNow())
        catch case _: IllegalStateException | _: CircuitBreakerOpenException => ()
      assertStormClean("breaker", r)
      // A probe place kept by a cancelled call would leave the breaker half-open for ever,
      // rejecting: successful calls must close it within a few rounds.
      var rounds = 0
      while b.state != CircuitBreaker.State.Closed && rounds < 50 do
        rounds += 1
        Thread.sleep(2)
        scala.util.Try(b.run(()))
      assertEquals(b.state, CircuitBreaker.State.Closed, b.metrics.toString)

  test("resource: every acquisition released exactly once".tag(Stress.tag)):
    withinDeadline(240, "storm-resource"):
      val acquired = AtomicInteger()
      val released = ConcurrentLinkedQueue[Int]()
      val res = Resource(acquired.incrementAndGet(), (id: Int) => released.add(id): Unit)
      val r = Storm.run(): i =>
        res.use(_ => if i % 2 == 0 then sleep(0) else Fiber.yieldNow())
      assertStormClean("resource", r)
      val ids = released.toArray.toSeq
      assertEquals(ids.distinct.length, ids.length, "a resource was released twice")
      assertEquals(ids.length, acquired.get, "an acquired resource was never released")

  test("channels: every value delivered is received exactly once, through reads and selects".tag(
    Stress.tag
  )):
    withinDeadline(240, "storm-channels"):
      for ch <- Seq(SyncChannel[Int](), BufferedChannel[Int](4)) do
        val delivered = ConcurrentLinkedQueue[Int]()
        val received = ConcurrentLinkedQueue[Int]()
        val r = Storm.run(seed = 5, alwaysGiveUp = true): i =>
          i % 3 match
            case 0 =>
              ch.send(i)
              delivered.add(i): Unit
            case 1 => ch.read().foreach(received.add)
            case _ =>
              val t = Timer(1)
              try Async.select(ch.canRead ~~> (_.foreach(received.add)), t ~~> (_ => ()))
              finally t.cancel()
        ch.close()
        var rest = ch.tryRead()
        while rest.exists(_.isSuccess) do
          rest.foreach(_.foreach(received.add))
          rest = ch.tryRead()
        assertStormClean("channels", r)
        assertExactlyOnce(received, delivered)

  test("channels closed by error: nothing read twice, every later call sees the error".tag(
    Stress.tag
  )):
    // Sends, reads, iterations and selects with a timeout case, given up at random, while one
    // call half-way fails the channel. A value read was sent, once; a rendezvous loses nothing;
    // a buffer loses at most its capacity (error drops it); a call that starts after `error`
    // returned gets no value and sends nothing; no timer, listener or thread is left.
    withinDeadline(240, "storm-channel-error"):
      val boom = IllegalStateException("upstream failed")
      val timersBefore = weft.testing.TimeTesting.pendingTimers
      for (ch, capacity) <- Seq(SyncChannel[Int]() -> 0, BufferedChannel[Int](4) -> 4) do
        val delivered = ConcurrentLinkedQueue[Int]()
        val received = ConcurrentLinkedQueue[Int]()
        val lateSuccesses = ConcurrentLinkedQueue[String]()
        val started = AtomicInteger()
        @volatile var failed = false
        val failing = Thread.ofPlatform().start: () =>
          awaitCondition("half the calls started")(started.get >= Storm.ops / 2)
          ch.error(boom)
          failed = true
        val r = Storm.run(seed = 11, alwaysGiveUp = true): i =>
          started.incrementAndGet()
          val late = failed
          def got(v: Int): Unit =
            received.add(v)
            if late then lateSuccesses.add(s"call $i read $v after error")
          locally:
            i % 4 match
              case 0 =>
                ch.sendOrClosed(i) match
                  case _: ChannelClosed => ()
                  case _ =>
                    delivered.add(i)
                    if late then lateSuccesses.add(s"call $i sent after error")
              case 1 =>
                ch.readOrClosed() match
                  case ChannelClosed.Error(e) => assert(e eq boom)
                  case c: ChannelClosed       => fail(s"read $c, not the error")
                  case v: Int                 => got(v)
              case 2 =>
                try ch.foreach(got)
                catch case e: ChannelFailedException => assert(e.getCause eq boom)
              case _ =>
                Async.select(
                  ch.canRead ~~> (_.foreach(got)),
                  onTimeout(i % 2)(())
                )
        failing.join()
        assertStormClean(s"channel-error-$capacity", r)
        assert(failed, "the storm never failed the channel")
        assertEquals(lateSuccesses.asScala.take(3).toList, Nil)
        val got = received.asScala.toVector.sorted
        val put = delivered.asScala.toVector.sorted
        assertEquals(got.distinct.length, got.length, "a value was received twice")
        assert(got.forall(put.toSet), s"received values never sent: ${got.diff(put).take(5)}")
        assert(put.length - got.length <= capacity, s"${put.diff(got)} sent, never read")
      awaitCondition("timeout cases freed their timers")(
        weft.testing.TimeTesting.pendingTimers <= timersBefore
      )

  test("sleep: every cancelled sleep frees its timer".tag(Stress.tag)):
    withinDeadline(240, "storm-sleep"):
      val scheduler = weft.runtime.AsyncSupport.default.scheduler
      val before = scheduler.pendingCount
      val r = Storm.run(): i =>
        sleep((i % 3).toLong)
      assertStormClean("sleep", r)
      val after = scheduler.pendingCount
      assert(after <= before, s"timers of cancelled sleeps stayed scheduled: $before -> $after")

  test("futures: awaits given up leave no listener on a long-lived future".tag(Stress.tag)):
    withinDeadline(240, "storm-futures"):
      val shutdown = Promise[Unit]()
      val r = Storm.run(): i =>
        i % 3 match
          case 0 => Seq(shutdown.future, Future(sleep(1))).awaitFirst
          case 1 => Async.await(Async.race(shutdown.future, Future(Fiber.yieldNow())))
          case _ => Seq(Future(i), Future(i + 1)).awaitAll: Unit
      assertStormClean("futures", r)
      val listeners = shutdown.future.asInstanceOf[CoreFuture[Unit]].listenerCount
      assertEquals(listeners, 0, s"listeners left on the long-lived future ($r)")
      shutdown.success(())

  test("supervised scopes: every fork joined, failures thrown once, no thread left".tag(
    Stress.tag
  )):
    // Each call opens a supervised scope with forks (direct, through a Scope handle from a
    // nested future, unsupervised), one of which may fail; the call is given up at random.
    withinDeadline(240, "storm-supervised"):
      val forks = ConcurrentLinkedQueue[Thread]()
      val failures = AtomicInteger()
      val r = Storm.run(): i =>
        try
          supervised:
            val scope = Scope.current
            Future:
              forks.add(Thread.currentThread())
              scope.fork:
                forks.add(Thread.currentThread())
                if i % 5 == 0 then throw IllegalStateException("handler")
                sleep(1)
            forkUnsupervised:
              forks.add(Thread.currentThread())
              if i % 3 == 0 then throw IllegalArgumentException("kept")
            Fiber.yieldNow()
        catch case e: IllegalStateException => failures.incrementAndGet(): Unit
      assertStormClean("supervised", r)
      assert(failures.get > 0, s"no scope ever failed, the storm tested half ($r)")
      assertEquals(forks.asScala.toList.filter(_.isAlive).take(3), Nil, s"forks outlived ($r)")

  test("keyed tasks: one at a time per key, each task run at most once, no key left active".tag(
    Stress.tag
  )):
    withinDeadline(240, "storm-keyed"):
      val running = new java.util.concurrent.ConcurrentHashMap[Int, Int]()
      val overlaps = AtomicInteger()
      val ran = AtomicInteger()
      var active = -1
      val r = Async.blocking:
        val seq = Sequentially[Int]()
        val report = Storm.run(): i =>
          val key = i % 8
          val body: Async ?=> Unit =
            if running.merge(key, 1, _ + _) > 1 then overlaps.incrementAndGet()
            ran.incrementAndGet()
            try Fiber.yieldNow()
            finally running.merge(key, -1, _ + _): Unit
          if i % 2 == 0 then seq.run(key)(body) else seq.submit(key)(body).result: Unit
        var spins = 0
        while seq.activeKeys > 0 && spins < 10_000 do
          Thread.sleep(1)
          spins += 1
        active = seq.activeKeys
        report
      assertStormClean("keyed", r)
      assertEquals(overlaps.get, 0, "two tasks of one key ran at once")
      assert(ran.get <= Storm.ops, s"${ran.get} bodies ran for ${Storm.ops} calls")
      assertEquals(active, 0, "keys stayed active after every task ended")

  test("parallel maps and races: values in order, no task left running".tag(Stress.tag)):
    withinDeadline(240, "storm-par"):
      val tasks = ConcurrentLinkedQueue[Thread]()
      def step(x: Int)(using Async): Int =
        tasks.add(Thread.currentThread())
        if x % 3 == 0 then sleep(0) else Fiber.yieldNow()
        x
      val r = Storm.run(): i =>
        i % 3 match
          case 0 =>
            val out = List(1, 2, 3, 4, 5).mapPar(2)(x => step(x) * 2)
            if out != List(2, 4, 6, 8, 10) then throw AssertionError(s"mapPar gave $out")
          case 1 =>
            // A cancellation (the call given up) goes through as it is: `withTimeout` runs
            // the op on its caller, so an op that turned it into another error would fail the
            // call with that error.
            try
              (1 to 6).foreachPar(3)(x => if step(x) == 4 then throw IllegalStateException("4"))
              throw AssertionError("foreachPar did not throw")
            catch
              case e: CancellationException => throw e // it is an IllegalStateException too
              case e: IllegalStateException =>
                if e.getMessage != "4" then throw AssertionError(s"foreachPar threw $e")
          case _ =>
            val v = raceSuccess(step(1), { step(3); throw IllegalStateException("x") }, step(2))
            if v != 1 && v != 2 then throw AssertionError(s"raceSuccess gave $v")
      assertStormClean("par", r)
      val alive = tasks.toArray.toSeq.collect { case t: Thread if t.isAlive => t }
      assertEquals(alive.take(3), Nil, s"tasks outlived their call ($r)")

  test("tickers, collectors and allocated resources: nothing left behind".tag(Stress.tag)):
    withinDeadline(240, "storm-ticker"):
      val scheduler = weft.runtime.AsyncSupport.default.scheduler
      val before = scheduler.pendingCount
      val acquired = AtomicInteger()
      val released = AtomicInteger()
      val res = Resource(acquired.incrementAndGet(), (_: Int) => released.incrementAndGet(): Unit)
      val r = Storm.run(): i =>
        i % 3 match
          case 0 =>
            val t = Ticker(1)
            Async.await(t): Unit // the ticker stops with this call's scope however it ends
          case 1 =>
            val c = Future.Collector(Future(i), Future { Fiber.yieldNow(); i + 1 })
            val got = c.results.values.take(2).map(_.await).toList.sorted
            if got != List(i, i + 1) then throw AssertionError(s"collector gave $got")
          case _ =>
            val a = res.allocated
            try Fiber.yieldNow()
            finally a.release()
      assertStormClean("ticker", r)
      assertEquals(released.get, acquired.get, "an allocated resource was never released")
      awaitCondition("tickers left the scheduler")(scheduler.pendingCount <= before)

/** The runtime's yield, for bodies that must give up their carrier without waiting. */
private object Fiber:
  def yieldNow(): Unit = weft.runtime.Fiber.yieldNow()
