package weft

import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.{AtomicInteger, AtomicReference}
import weft.internal.async.AsyncContext
import weft.internal.select.Selector

/**
 * The listener behind `await` once its awaiter has left (ADR 0006): a source that still holds
 * it can no longer complete it, or, if the source had locked it first, the awaiter keeps the
 * value. Either way no value is handed to nobody.
 */
class AwaitAbandonSuite extends munit.FunSuite, weft.testing.StressChecks:

  /**
   * A source that keeps the last listener registered and never forgets it on `dropListener`,
   * as a source does that took its waiter off a queue and completes it outside its own lock.
   */
  final class Holding extends Source[Int]:
    val held = AtomicReference[Listener[Int] | Null](null)
    val registered = CountDownLatch(1)
    def poll(k: Listener[Int]): Boolean = false
    def onComplete(k: Listener[Int]): Unit =
      held.set(k)
      registered.countDown()

    def dropListener(k: Listener[Int]): Unit = ()

  test("a source cannot complete an await whose awaiter was cancelled"):
    withinDeadline(20, "await-abandon"):
      val src = Holding()
      Async.blocking:
        Async.group:
          val f = Future(Async.await(src))
          src.registered.await()
          f.cancel()
        // The group joined the awaiter's fiber: it has given up.
        val k = src.held.get().nn
        assert(!k.completeNow(42, src), "a value was handed to an awaiter that had left")
        assert(!k.acquireLock(), "the lock of an abandoned await must stay retired")

  test("an awaiter cancelled while a source holds its lock keeps the value the source delivers"):
    withinDeadline(20, "await-locked"):
      for round <- 1 to 50 do
        val src = Holding()
        val got = AtomicInteger(-1)
        Async.blocking:
          Async.group:
            val f = Future:
              val v = Async.await(src)
              got.set(v)
            src.registered.await()
            val k = src.held.get().nn
            assert(k.acquireLock(), "the await's lock is free while it waits")
            f.cancel()
            if round % 2 == 0 then Thread.sleep(1) // let the awaiter reach its give-up
            k.complete(round, src)
        assertEquals(got.get(), round, "the value delivered under the lock was lost")

  test("a cancelled awaiter declines: a value offered before it wakes stays with the source"):
    withinDeadline(20, "await-declines"):
      val src = Holding()
      Async.blocking:
        val f = Future(Async.await(src))
        src.registered.await()
        f.cancel() // the awaiter's fiber may not have woken yet: its claim is declined at once
        val k = src.held.get().nn
        assert(!k.completeNow(42, src), "a value was handed to a cancelled awaiter")
        assert(f.result.failed.get.isInstanceOf[java.util.concurrent.CancellationException])

  // A claim checks the cancellation once it holds the lock, not only when it starts: a source
  // that began claiming before `cancel()`, and had to wait for a contender holding the lock, gets
  // it after the cancel and must decline (ADR 0017). The waiter's owner is a future whose fiber
  // waits on a JDK latch meanwhile, deaf to the cancel's interrupt, so that its own give-up
  // cannot take the lock first and hide the claim's late check.
  for viaSelect <- Seq(false, true) do
    val how = if viaSelect then "a select" else "an await"
    test(s"a claim on $how that started before cancel() and gets the lock after it is declined"):
      withinDeadline(20, "await-claim-after-cancel"):
        val src = Holding()
        val ownerMayLeave = CountDownLatch(1)
        Async.blocking:
          val f = Future:
            if viaSelect then Selector(Seq(src ~~> identity), summon[Async]).registerAll(): Unit
            else src.onComplete(AsyncContext.Waiter[Int](runtime.Fiber.current, summon[Async]))
            var interrupted = false
            while !(try ownerMayLeave.await(20, java.util.concurrent.TimeUnit.SECONDS)
              catch
                case _: InterruptedException =>
                  interrupted = true
                  false
              )
            do ()
            if interrupted then Thread.currentThread().interrupt()
          src.registered.await()
          val k = src.held.get().nn
          assert(k.acquireLock(), "the contender takes the free lock")
          @volatile var claimed: Option[Boolean] = None
          val claimant = Thread.ofPlatform().start(() => claimed = Some(k.completeNow(42, src)))
          // Past the cancellation check and spinning on the held lock: it parks between spins.
          while claimant.getState != Thread.State.TIMED_WAITING do Thread.onSpinWait()
          f.cancel()
          k.releaseLock()
          claimant.join()
          ownerMayLeave.countDown()
          assertEquals(claimed, Some(false), "a value was handed to a cancelled waiter")
          assert(f.result.failed.get.isInstanceOf[java.util.concurrent.CancellationException])
