package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue}
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.DurationInt
import scala.util.Success
import weft.channels.{BufferedChannel, SyncChannel}
import weft.runtime.{AsyncSupport, Fiber, Scheduler}
import weft.testing.TimeTesting.{awaitCondition, pendingTimers}
import weft.internal.async.AsyncContext
import weft.internal.select.Selector

/**
 * The timeout case of a select (`onTimeout`): it fires when nothing else does, loses to a case
 * ready at the start, and leaves no scheduled task, listener or parked case behind when another
 * case wins or the select is given up.
 */
class SelectTimeoutSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A scheduler that runs nothing by itself: it counts live tasks, and `fire` runs them. */
  final class ManualScheduler extends Scheduler:
    val tasks = ConcurrentLinkedQueue[Runnable]()
    val live = AtomicInteger()
    val delays = ConcurrentLinkedQueue[Long]()
    def schedule(delayNanos: Long, task: Runnable): Scheduler.Cancel =
      delays.add(delayNanos)
      tasks.add(task)
      live.incrementAndGet()
      () => tasks.remove(task) && { live.decrementAndGet(); true }
    def pendingCount: Int = live.get
    def fire(): Unit =
      val t = tasks.poll()
      if t != null then
        live.decrementAndGet()
        t.run()

  /**
   * Starts a select of `cases` and a one-hour timeout case (returning -1) on a manual scheduler
   * in a future; returns once the timeout case is registered.
   */
  def startSelect(cases: SelectCase[?, Int]*)(using
      Async
  ): (ManualScheduler, Selector.Timeout, Future[Int]) =
    val sched = ManualScheduler()
    val timeout = Selector.Timeout(1.hour.toNanos, sched)
    val sel = Future(Async.select((cases :+ SelectCase(timeout, _ => -1))*))
    awaitCondition("the timeout registered")(timeout.waiting == 1)
    (sched, timeout, sel)

  test("fires after the timeout when no other case does, and frees its task"):
    val before = pendingTimers
    val ch = SyncChannel[Int]()
    val r = Async.blocking:
      Async.select(ch.canRead ~~> (_ => "read"), onTimeout(20.millis)("timed out"))
    assertEquals(r, "timed out")
    awaitCondition("the timer task freed")(pendingTimers <= before)
    assertEquals(ch.trySend(1), false, "the read case stayed parked after the timeout")

  // On a manual scheduler, so the check is the delay `onTimeout` asks for, whatever the load:
  // the case must not be able to fire before its timeout (a unit slip would ask for less).
  test("onTimeout(d) schedules its case d after the select parks, not sooner"):
    val sched = ManualScheduler()
    val ch = SyncChannel[Int]()
    Async.blocking:
      val base = summon[Async]
      val onManual: Async = AsyncContext(
        base.group,
        null,
        new AsyncSupport:
          def start(body: Runnable): Fiber = base.support.start(body)
          def scheduler: Scheduler = sched
          def clock: weft.runtime.Clock = base.support.clock
      )
      val cases = List(
        onTimeout(1.second)(-1)(using onManual),
        onTimeout(1500L)(-2)(using onManual)
      )
      for (c, i) <- cases.zipWithIndex do
        val sel = Future(Async.select(ch.canRead ~~> (_ => 0), c))
        awaitCondition("the timeout registered")(sched.pendingCount == 1)
        assertEquals(sched.delays.poll(), List(1.second, 1500.millis)(i).toNanos)
        sched.fire()
        assertEquals(sel.await, -1 - i)
    assertEquals(sched.pendingCount, 0)

  test("a case ready at the start wins over a zero timeout, listed first or last"):
    val ch = BufferedChannel[Int](4)
    Async.blocking:
      ch.send(1)
      ch.send(2)
      assertEquals(Async.select(onTimeout(0)(-1), ch.canRead ~~> (_.get)), 1)
      assertEquals(Async.select(ch.canRead ~~> (_.get), onTimeout(0)(-1)), 2)
      assertEquals(Async.select(ch.canRead ~~> (_.get), onTimeout(0)(-1)), -1)

  test("another case winning cancels the timer: no task, no listener left"):
    val p = Promise[Int]()
    val (sched, timeout) = Async.blocking:
      val (sched, timeout, sel) = startSelect(p.future ~~> (_.get))
      assertEquals(sched.pendingCount, 1)
      p.success(5)
      assertEquals(sel.await, 5)
      (sched, timeout)
    assertEquals(timeout.waiting, 0, "the timeout's listener stayed")
    assertEquals(sched.pendingCount, 0, "the timer task stayed scheduled")

  test("the timer ringing completes the select once; a late value is left for others"):
    val ch = SyncChannel[Int]()
    Async.blocking:
      val (sched, timeout, sel) = startSelect(ch.canRead ~~> (_.get))
      sched.fire()
      assertEquals(sel.await, -1)
      assertEquals(ch.trySend(1), false, "the losing read case still took a value")
      assertEquals(timeout.waiting, 0)

  test("cancelling the selecting fiber frees the timer and the parked cases"):
    val a = SyncChannel[Int]()
    val b = BufferedChannel[Int](1)
    Async.blocking:
      // The group's end cancels the select and waits until its fiber has left.
      val (sched, timeout, sel) = Async.group:
        startSelect(a.canRead ~~> (_ => 1), b.canRead ~~> (_ => 2))
      assert(sel.result.failed.toOption.exists(_.isInstanceOf[CancellationException]))
      assertEquals(a.trySend(1), false, "the abandoned select stayed parked in a's cell")
      b.send(2)
      assertEquals(b.tryRead(), Some(Success(2)), "the abandoned select took b's value")
      assertEquals((timeout.waiting, sched.pendingCount), (0, 0), "the timer stayed")

  test("a loop of selects with a timeout leaves no timer behind"):
    val before = pendingTimers
    val ch = SyncChannel[Int]()
    val got = Async.blocking:
      Future:
        for i <- 1 to 200 do
          ch.send(i)
          if i % 10 == 0 then sleep(1)
        ch.close()
      var sum = 0
      var timeouts = 0
      var more = true
      var rounds = 0
      while more && rounds < 10_000 do
        rounds += 1
        Async.select(
          ch.canRead ~~> (r => r.fold(_ => more = false, v => sum += v)),
          onTimeout(1.hour)(timeouts += 1)
        )
      (sum, timeouts)
    assertEquals(got, ((1 to 200).sum, 0))
    awaitCondition("every timer freed")(pendingTimers <= before)

  test("a negative timeout is rejected with a message naming it"):
    Async.blocking:
      val e1 = intercept[IllegalArgumentException](onTimeout(-1)(()))
      assertEquals(e1.getMessage, "onTimeout: the timeout must be >= 0, got -1 ms")
      val e2 = intercept[IllegalArgumentException](onTimeout(-1.second)(()))
      assert(e2.getMessage.contains("timeout"), e2.getMessage)
