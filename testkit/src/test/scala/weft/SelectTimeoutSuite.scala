package weft

import java.util.concurrent.CancellationException
import scala.concurrent.duration.*
import scala.util.Success
import weft.channels.{BufferedChannel, SyncChannel}
import weft.testing.VirtualTesting.scopeTimers
import weft.testkit.*
import weft.internal.select.Selector

/**
 * The timeout case of a select (`onTimeout`): it fires when nothing else does, at exactly its
 * timeout (on virtual time), loses to a case ready at the start, and leaves no scheduled task,
 * listener or parked case behind when another case wins or the select is given up.
 */
class SelectTimeoutSuite extends munit.FunSuite, weft.testing.Deadlined:

  /**
   * Starts a select of `cases` and a one-hour timeout case (returning -1) on the scope's virtual
   * scheduler in a future; returns once the timeout case is registered.
   */
  def startSelect(cases: SelectCase[?, Int]*)(using
      VirtualClock,
      Async
  ): (Selector.Timeout, Future[Int]) =
    val timeout = Selector.Timeout(1.hour.toNanos, summon[Async].support.scheduler)
    val sel = Future(Async.select((cases :+ SelectCase(timeout, _ => -1))*))
    runUntilIdle()
    assertEquals(timeout.waiting, 1, "the timeout registered")
    (timeout, sel)

  test("fires after the timeout when no other case does, and frees its task"):
    val ch = SyncChannel[Int]()
    VirtualTime.run:
      val r = Async.select(ch.canRead ~~> (_ => "read"), onTimeout(20.millis)("timed out"))
      assertEquals(r, "timed out")
      assertEquals(currentTime, 20.millis)
      assertEquals(scopeTimers, 0, "the timer task freed")
      assertEquals(ch.trySend(1), false, "the read case stayed parked after the timeout")

  // The case must not be able to fire before its timeout (a unit slip would ask for less).
  test("onTimeout(d) schedules its case d after the select parks, not sooner"):
    val ch = SyncChannel[Int]()
    VirtualTime.run:
      sleep(7.millis) // the select parks at 7 ms
      assertEquals(Async.select(ch.canRead ~~> (_ => 0), onTimeout(1.second)(-1)), -1)
      assertEquals(currentTime, 1007.millis)
      assertEquals(Async.select(ch.canRead ~~> (_ => 0), onTimeout(1500L)(-2)), -2)
      assertEquals(currentTime, 2507.millis)
      assertEquals(scopeTimers, 0)

  test("a case ready at the start wins over a zero timeout, listed first or last"):
    val ch = BufferedChannel[Int](4)
    VirtualTime.run:
      ch.send(1)
      ch.send(2)
      assertEquals(Async.select(onTimeout(0)(-1), ch.canRead ~~> (_.get)), 1)
      assertEquals(Async.select(ch.canRead ~~> (_.get), onTimeout(0)(-1)), 2)
      assertEquals(Async.select(ch.canRead ~~> (_.get), onTimeout(0)(-1)), -1)
      assertEquals(currentTime, Duration.Zero)

  test("another case winning cancels the timer: no task, no listener left"):
    val p = Promise[Int]()
    VirtualTime.run:
      val (timeout, sel) = startSelect(p.future ~~> (_.get))
      assertEquals(scopeTimers, 1)
      p.success(5)
      assertEquals(sel.await, 5)
      assertEquals(timeout.waiting, 0, "the timeout's listener stayed")
      assertEquals(scopeTimers, 0, "the timer task stayed scheduled")
      assertEquals(currentTime, Duration.Zero)

  test("the timer ringing completes the select once; a late value is left for others"):
    val ch = SyncChannel[Int]()
    VirtualTime.run:
      val (timeout, sel) = startSelect(ch.canRead ~~> (_.get))
      assertEquals(sel.await, -1)
      assertEquals(currentTime, 1.hour)
      assertEquals(ch.trySend(1), false, "the losing read case still took a value")
      assertEquals(timeout.waiting, 0)

  test("cancelling the selecting fiber frees the timer and the parked cases"):
    val a = SyncChannel[Int]()
    val b = BufferedChannel[Int](1)
    VirtualTime.run:
      // The group's end cancels the select and waits until its fiber has left.
      val (timeout, sel) = Async.group:
        startSelect(a.canRead ~~> (_ => 1), b.canRead ~~> (_ => 2))
      assert(sel.result.failed.toOption.exists(_.isInstanceOf[CancellationException]))
      assertEquals(a.trySend(1), false, "the abandoned select stayed parked in a's cell")
      b.send(2)
      assertEquals(b.tryRead(), Some(Success(2)), "the abandoned select took b's value")
      assertEquals((timeout.waiting, scopeTimers), (0, 0), "the timer stayed")

  test("a loop of selects with a timeout leaves no timer behind"):
    val ch = SyncChannel[Int]()
    VirtualTime.run:
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
      assertEquals((sum, timeouts), ((1 to 200).sum, 0))
      assertEquals(currentTime, 20.millis, "twenty pauses of 1 ms, no timeout")
      // the last select is won by the producer's close, which drops the losing timeout case
      // after waking the reader: wait until it has
      runUntilIdle()
      assertEquals(scopeTimers, 0, "every timer freed")

  test("a negative timeout is rejected with a message naming it"):
    Async.blocking:
      val e1 = intercept[IllegalArgumentException](onTimeout(-1)(()))
      assertEquals(e1.getMessage, "onTimeout: the timeout must be >= 0, got -1 ms")
      val e2 = intercept[IllegalArgumentException](onTimeout(-1.second)(()))
      assert(e2.getMessage.contains("timeout"), e2.getMessage)
