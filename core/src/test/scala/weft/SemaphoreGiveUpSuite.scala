package weft

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import weft.*
import weft.runtime.Fiber
import weft.testing.TimeTesting.*

/**
 * What waiters that give up leave in a held semaphore's queue: a segment whose every claim was
 * given up is unlinked at once, so the queue keeps a bounded number of segments however many
 * selects time out or acquirers are cancelled while the permit is held (counted through
 * `queuedSegments`, not timed). And with segments of two cells, so that removal happens all the
 * time, no permit is lost or given twice under random cancellation.
 */
class SemaphoreGiveUpSuite extends munit.FunSuite, weft.testing.StressChecks:

  /** A listener with its own lock, as an await's waiter: it keeps what it is given. */
  private final class Keeper extends NumberedLock, Listener[Semaphore.Guard]:
    val lock: ListenerLock | Null = this
    @volatile var got: Semaphore.Guard | Null = null
    def complete(g: Semaphore.Guard, src: Source[Semaphore.Guard]): Unit =
      got = g
      retire()

  /** Queues a listener and gives it up, as an await or a select that is abandoned does. */
  private def queueAndGiveUp(s: Semaphore): Unit =
    val k = Keeper()
    s.acquiring.onComplete(k)
    s.acquiring.dropListener(k)
    assert(k.retireUnused(), "a held semaphore served a listener")

  test("listeners given up on a held semaphore leave a bounded number of segments"):
    val s = Semaphore(1)
    val g = s.tryAcquire().get
    for _ <- 1 to 10_000 do queueAndGiveUp(s)
    assert(s.queuedSegments <= 3, s"${s.queuedSegments} segments kept for 10000 give-ups")
    assertEquals(s.waiting, 0)
    g.close()
    assertEquals((s.available, s.waiting), (1, 0))

  test("give-ups behind a live waiter leave a bounded number of segments, and it is served"):
    withinDeadline(30, "semaphore-give-ups-behind-waiter"):
      val s = Semaphore(1)
      Async.blocking:
        val g = s.acquire()
        val waiter = Future(s.withPermit("served"))
        awaitCondition("the waiter queued")(s.waiting == 1)
        for _ <- 1 to 10_000 do queueAndGiveUp(s)
        assert(s.queuedSegments <= 3, s"${s.queuedSegments} segments kept for 10000 give-ups")
        for _ <- 1 to 10_000 do queueAndGiveUp(s)
        assertEquals(s.waiting, 1)
        g.close()
        assertEquals(waiter.await, "served")
      assertEquals((s.available, s.waiting), (1, 0))

  test("waiters served one after another leave a bounded number of segments"):
    // No give-ups here: what bounds the segments kept is the hints moving forward with the
    // claims they serve, so that the segments behind both can be collected.
    val s = Semaphore(1)
    var held = s.tryAcquire().get
    for i <- 1 to 1000 do
      val k = Keeper()
      s.acquiring.onComplete(k)
      held.close() // serves `k` at once
      held = k.got match
        case null => fail(s"waiter $i was not served by the release")
        case g    => g
    assert(s.queuedSegments <= 2, s"${s.queuedSegments} segments kept for 1000 waiters served")
    held.close()
    assertEquals((s.available, s.waiting), (1, 0))

  test("neighbouring segments given up at the same time are both unlinked"):
    // Two threads drop the waiters of alternate two-cell segments in step, so that a segment
    // and its predecessor often become dead together: each unlink must link around the other.
    withinDeadline(60, "semaphore-neighbours-given-up"):
      val s = Semaphore(1).withSegmentShift(1)
      val g = s.tryAcquire().get
      for _ <- 1 to 200 do
        val ks = Vector.fill(64)(Keeper())
        ks.foreach(s.acquiring.onComplete)
        val start = java.util.concurrent.CyclicBarrier(2)
        val droppers = (0 to 1).map: side =>
          Thread.ofPlatform().daemon(true).start: () =>
            start.await()
            for seg <- side until 32 by 2; k <- Seq(ks(2 * seg), ks(2 * seg + 1)) do
              s.acquiring.dropListener(k)
        droppers.foreach(t => weft.testing.Waits.join(t, "a dropper"))
        assertEquals(s.waiting, 0)
      assert(s.queuedSegments <= 3, s"${s.queuedSegments} segments kept after the give-ups")
      g.close()
      assertEquals((s.available, s.waiting), (1, 0))

  test("blocking acquirers cancelled on a held semaphore leave a bounded number of segments"):
    withinDeadline(30, "semaphore-cancelled-acquirers"):
      val s = Semaphore(1)
      Async.blocking:
        val g = s.acquire()
        val waiters = (1 to 320).map(_ => Future(s.acquire().close()))
        awaitCondition("all queued")(s.waiting == 320)
        waiters.foreach(_.cancel())
        waiters.foreach(w => assert(w.result.isFailure))
        awaitCondition("all given up")(s.waiting == 0)
        assert(s.queuedSegments <= 3, s"${s.queuedSegments} segments kept for 320 give-ups")
        g.close()
      assertEquals((s.available, s.waiting), (1, 0))

  test("awaiting listeners cancelled in any order are found without scanning the queue"):
    withinDeadline(30, "semaphore-awaiters-cancelled"):
      val s = Semaphore(1)
      Async.blocking:
        val g = s.acquire()
        val awaiting = (1 to 640).map: i =>
          Future:
            if i % 2 == 0 then Async.await(s.acquiring).close()
            else Async.select(s.acquiring ~~> (_.close()), onTimeout(60_000)(())): Unit
        awaitCondition("all queued")(s.waiting == 640)
        // Last queued first, then the rest shuffled: a scan from the head would pass them all.
        val order = awaiting.reverse.take(320) ++ scala.util.Random(3).shuffle(awaiting.take(320))
        order.foreach(_.cancel())
        awaiting.foreach(w => assert(w.result.isFailure))
        awaitCondition("all given up")(s.waiting == 0)
        assertEquals(s.scansForDrops, 0L, "a dropped waiter was searched for in the queue")
        assert(s.queuedSegments <= 3, s"${s.queuedSegments} segments kept for 640 give-ups")
        g.close()
      assertEquals((s.available, s.waiting), (1, 0))

  test("two-cell segments under random cancellation: never more holders than permits, none lost"):
    withinDeadline(60, "semaphore-small-segments"):
      val s = Semaphore(2).withSegmentShift(1)
      val inside = AtomicInteger()
      val most = AtomicInteger()
      val served = AtomicInteger()
      val rnd = scala.util.Random(7)
      Async.blocking:
        for round <- 1 to 40 do
          val fs = (1 to 24).map: i =>
            Future:
              val body = () =>
                most.accumulateAndGet(inside.incrementAndGet(), math.max)
                try Fiber.yieldNow()
                finally inside.decrementAndGet(): Unit
                served.incrementAndGet(): Unit
              i % 3 match
                case 0 => s.withPermit(body())
                case 1 => Async.await(s.acquiring).close()
                case _ =>
                  Async.select(s.acquiring ~~> (g => g.close()), onTimeout(0)(())): Unit
          for f <- fs if rnd.nextInt(3) == 0 do f.cancel()
          fs.foreach(_.result: Unit)
      assert(most.get <= 2, s"${most.get} holders of 2 permits")
      assert(served.get > 0, "nobody was ever served")
      assertEquals((s.available, s.waiting), (2, 0), "a permit was lost or given twice")
