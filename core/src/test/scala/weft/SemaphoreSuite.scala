package weft

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.ConcurrentLinkedQueue
import scala.jdk.CollectionConverters.*
import weft.*
import weft.testing.TimeTesting.*

/** Semaphore: permits, guards, fairness, acquisition as a select case, and no lost permits. */
class SemaphoreSuite extends munit.FunSuite, weft.testing.StressChecks:

  test("acquire takes a permit and closing the guard returns it, once"):
    val s = Semaphore(2)
    Async.blocking:
      val g1 = s.acquire()
      val g2 = s.acquire()
      assertEquals(s.available, 0)
      assertEquals(s.tryAcquire(), None)
      g1.close()
      g1.close()
      assertEquals(s.available, 1)
      assert(g1.isClosed)
      g2.close()
    assertEquals(s.available, 2)

  test("at most `permits` holders at a time, under contention"):
    val s = Semaphore(3)
    val inside = AtomicInteger()
    val peak = AtomicInteger()
    val done = AtomicInteger()
    Async.blocking:
      (1 to 300).map: _ =>
        Future:
          s.withPermit:
            peak.accumulateAndGet(inside.incrementAndGet(), math.max)
            Thread.`yield`()
            inside.decrementAndGet()
            done.incrementAndGet()
      .awaitAll
    assertEquals(done.get, 300)
    assert(peak.get <= 3, s"peak ${peak.get}")
    assertEquals(s.available, 3)

  test("waiters are served in FIFO order, and newcomers do not overtake them"):
    val s = Semaphore(1)
    val order = ConcurrentLinkedQueue[Int]()
    Async.blocking:
      val holder = s.acquire()
      val fs = (1 to 6).map: i =>
        val f = Future(s.withPermit(order.add(i)))
        awaitCondition(s"waiter $i queued")(s.waiting == i)
        f
      assertEquals(s.tryAcquire(), None)
      holder.close()
      fs.awaitAll
    assertEquals(order.asScala.toList, (1 to 6).toList)

  test("in a select, a busy semaphore loses to a timer and leaves no waiter behind"):
    val s = Semaphore(1)
    Async.blocking:
      val g = s.acquire()
      val r = Async.select(s.acquiring ~~> (_ => "permit"), Timer(20) ~~> (_ => "timer"))
      assertEquals(r, "timer")
      // the race drops its losing listener right after waking the winner: wait for it
      awaitCondition("the losing listener is dropped")(s.waiting == 0)
      g.close()
      assertEquals(s.available, 1)

  test("in a select, a free semaphore wins and exactly one permit is taken"):
    val a = Semaphore(1)
    val b = Semaphore(1)
    Async.blocking:
      val g = Async.select(a.acquiring ~~> identity, b.acquiring ~~> identity)
      assertEquals(a.available + b.available, 1)
      g.close()
    assertEquals(a.available + b.available, 2)

  test("a waiter cancelled while queued leaves the queue and loses no permit"):
    val s = Semaphore(1)
    Async.blocking:
      val g = s.acquire()
      val f = Future(s.acquire())
      awaitCondition("queued")(s.waiting == 1)
      f.cancel()
      assert(f.result.failed.get.isInstanceOf[CancellationException])
      awaitCondition("dropped")(s.waiting == 0)
      g.close()
    assertEquals(s.available, 1)

  test("a waiter cancelled as a release hands it the permit never swallows the permit"):
    // Each round: a holder, a queued waiter, then a release and a cancel of the waiter racing.
    // Whoever wins, the permit must end with the waiter (released by its withPermit) or back
    // in the semaphore: never with a waiter that already threw CancellationException.
    withinDeadline(60, "semaphore-cancel-release"):
      val rnd = scala.util.Random(22)
      for round <- 1 to 400 do
        val s = Semaphore(1)
        Async.blocking:
          val g = s.acquire()
          val f = Future(s.withPermit(()))
          awaitCondition("queued")(s.waiting == 1)
          val spin = rnd.nextInt(2_000)
          val canceller = Future:
            var i = 0
            while i < spin do i += 1
            f.cancel()
          g.close()
          canceller.await
          f.result: Unit
        assertEquals(s.available, 1, s"round $round: a permit was lost (${s.waiting} waiting)")

  test("acquire under a short timeout never loses a permit"):
    withinDeadline(60, "semaphore-timeout"):
      val s = Semaphore(1)
      val acquired = AtomicInteger()
      Async.blocking:
        val contenders = (1 to 3).map: c =>
          Future:
            val rnd = scala.util.Random(c)
            for _ <- 1 to 1_500 do
              withTimeoutOption(rnd.nextInt(2).toLong)(s.acquire()) match
                case Some(g) =>
                  acquired.incrementAndGet()
                  Thread.onSpinWait()
                  g.close()
                case None => ()
        contenders.awaitAll: Unit
      assert(acquired.get > 0, "no acquisition ever finished in time")
      assertEquals(s.available, 1, "a permit acquired as the timeout fired was dropped")

  test("stress: selects racing two semaphores and timers conserve every permit"):
    val a = Semaphore(2)
    val b = Semaphore(1)
    val got = AtomicInteger()
    Async.blocking:
      (1 to 400).map: i =>
        Future:
          val r = Async.select(
            a.acquiring ~~> (g => Some(g)),
            b.acquiring ~~> (g => Some(g)),
            Timer(i % 3) ~~> (_ => None)
          )
          r.foreach: g =>
            got.incrementAndGet()
            Thread.`yield`()
            g.close()
      .awaitAll
    awaitCondition("losing listeners dropped")(a.waiting + b.waiting == 0)
    assertEquals(a.available, 2)
    assertEquals(b.available, 1)
    assert(got.get > 0)

  /** A racing listener already completed elsewhere (its lock retired): it declines every offer. */
  private def alreadyCompleted(): (Listener[Semaphore.Guard], NumberedLock) =
    val retirable = NumberedLock()
    val l = new Listener[Semaphore.Guard]:
      val lock: ListenerLock | Null = retirable
      def complete(data: Semaphore.Guard, source: Source[Semaphore.Guard]): Unit =
        fail("a declining listener was completed")
    (l, retirable)

  test("a listener that declines never keeps a permit: poll, onComplete and hand-off"):
    val s = Semaphore(1)
    val (gone, lock) = alreadyCompleted()
    assert(lock.acquire())
    lock.retire()
    assert(s.acquiring.poll(gone)) // a permit was offered ...
    assertEquals(s.available, 1) // ... declined, and kept
    s.acquiring.onComplete(gone)
    assertEquals(s.available, 1)
    assertEquals(s.waiting, 0)
    // hand-off: a queued listener that is completed elsewhere before the release skips its turn
    Async.blocking:
      val g = s.acquire()
      val (queued, qlock) = alreadyCompleted()
      s.acquiring.onComplete(queued)
      val next = Future(s.acquire())
      awaitCondition("both queued")(s.waiting == 2)
      assert(qlock.acquire())
      qlock.retire()
      g.close()
      // a liveness guard (not a timing assertion): a lost permit would hang here forever
      withTimeout(20_000)(next.await).close()
    assertEquals(s.waiting, 0)
    assertEquals(s.available, 1)

  test("acquire in a cancelled scope throws and takes no permit, even if one is free"):
    val s = Semaphore(1)
    val outcome = java.util.concurrent.atomic.AtomicReference("not run")
    Async.blocking:
      val started = Promise[Unit]()
      val f = Future:
        try
          started.success(())
          sleep(60_000)
        catch case _: CancellationException => ()
        outcome.set:
          try
            s.acquire()
            "acquired"
          catch case _: CancellationException => "refused"
      started.future.await
      f.cancel()
    assertEquals(outcome.get, "refused")
    assertEquals(s.available, 1)

  test("zero or negative permits are an IllegalArgumentException"):
    intercept[IllegalArgumentException](Semaphore(0))
    intercept[IllegalArgumentException](Semaphore(-3))
