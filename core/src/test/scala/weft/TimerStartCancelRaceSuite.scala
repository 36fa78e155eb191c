package weft

import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.DurationInt
import weft.*
import weft.runtime.Scheduler
import weft.testing.InvariantChecks

/**
 * A `StartableTimer` cancelled while `start()` is scheduling it: `cancel` finds no handle yet,
 * so `start` must cancel the task it has just scheduled; a cancelled timer never stays in the
 * scheduler. The interleaving is forced with a scheduler that holds `schedule` until the test
 * has cancelled the timer.
 */
class TimerStartCancelRaceSuite extends munit.FunSuite, InvariantChecks:

  /** A scheduler that never runs its tasks and holds the first `schedule` until `proceed`. */
  final class HeldScheduler extends Scheduler:
    val scheduling = CountDownLatch(1)
    val proceed = CountDownLatch(1)
    private val pending = AtomicInteger()

    def schedule(delayNanos: Long, task: Runnable): Scheduler.Cancel =
      pending.incrementAndGet()
      scheduling.countDown()
      proceed.await()
      val cancelled = java.util.concurrent.atomic.AtomicBoolean()
      () => cancelled.compareAndSet(false, true) && { pending.decrementAndGet(); true }

    def pendingCount: Int = pending.get

  test("a timer cancelled while start() schedules it leaves no task in the scheduler"):
    val scheduler = HeldScheduler()
    val timer = StartableTimer(1.hour, scheduler)
    holdsWithin(10, "a cancelled timer never stays in the scheduler"):
      val starting = Thread.ofPlatform().start(() => timer.start())
      scheduler.scheduling.await() // start() is inside schedule(): no handle published yet
      timer.cancel()
      scheduler.proceed.countDown()
      starting.join()
    assertEquals(timer.poll(), Some(false), "the timer was cancelled before it rang")
    assertEquals(scheduler.pendingCount, 0, "the cancelled timer's task stayed in the scheduler")

  test("a timer cancelled after start() leaves no task in the scheduler"):
    val scheduler = HeldScheduler()
    scheduler.proceed.countDown()
    val timer = StartableTimer(1.hour, scheduler)
    timer.start()
    assertEquals(scheduler.pendingCount, 1)
    timer.cancel()
    assertEquals(scheduler.pendingCount, 0, "cancel() did not free the scheduler entry")
