package weft

import java.util.concurrent.CancellationException
import scala.concurrent.duration.*
import scala.util.Success
import weft.*
import weft.testing.TimeTesting.*

/** Ticker (periodic timer) and `Source.values`: ticks on schedule, skipping, stopping. */
class TickerSuite extends munit.FunSuite, weft.testing.StressChecks:

  def holdsIn(seconds: Int)(body: => Unit): Unit = withinDeadline(seconds, "weft-ticker-")(body)

  test("a ticker offers true at every tick, never before its time"):
    holdsIn(20):
      Async.blocking:
        val t0 = System.nanoTime()
        val ticker = Ticker(10.millis)
        for _ <- 1 to 3 do
          assertEquals(Async.await(ticker), true)
          val tick = ticker.ticks // read before the clock: a later tick may fire meanwhile
          val elapsedMs = (System.nanoTime() - t0) / 1_000_000.0
          assert(elapsedMs >= tick * 10 - 1, s"tick $tick at $elapsedMs ms")
        assert(ticker.ticks >= 3, ticker.toString)
        ticker.cancel()

  /** A scheduler the test runs by hand: it keeps each task with the delay it was asked for. */
  final class HandScheduler extends weft.runtime.Scheduler:
    val tasks = java.util.concurrent.ConcurrentLinkedQueue[(Long, Runnable)]()
    def schedule(delayNanos: Long, task: Runnable): weft.runtime.Scheduler.Cancel =
      val e = (delayNanos, task)
      tasks.add(e)
      () => tasks.remove(e)
    def pendingCount: Int = tasks.size

    /** The one pending task: its delay in milliseconds, and the task. */
    def only(): (Long, Runnable) =
      assertEquals(tasks.size, 1, "one tick pending")
      val (d, t) = tasks.poll()
      (d / 1_000_000L, t)

  // On a clock and a scheduler moved by hand, so that no load can make a tick late or early:
  // the property is the schedule the ticker asks for, not when a loaded machine delivered it.
  test("ticks do not drift: tick k is due k periods after the start; a late one skips the missed"):
    val now = java.util.concurrent.atomic.AtomicLong(0L)
    val scheduler = HandScheduler()
    val ticker = new Ticker(10.millis, scheduler, () => now.get)
    val (d1, tick1) = scheduler.only()
    assertEquals(d1, 10L)
    now.set(13.millis.toNanos) // tick 1 rings 3 ms late
    tick1.run()
    assertEquals(ticker.ticks, 1L)
    val (d2, tick2) = scheduler.only()
    assertEquals(d2, 7L, "tick 2 is due at 20 ms from the start, not 10 ms after the late tick 1")
    now.set(45.millis.toNanos) // tick 2 rings after ticks 3 and 4 were due
    tick2.run()
    assertEquals(ticker.ticks, 2L)
    val (d3, tick3) = scheduler.only()
    assertEquals(d3, 5L, "the next is tick 5, due at 50 ms: ticks 3 and 4 are skipped, not burst")
    now.set(50.millis.toNanos)
    tick3.run()
    assertEquals(ticker.ticks, 5L)
    ticker.cancel()
    assertEquals(scheduler.pendingCount, 0, "a cancelled ticker leaves no tick scheduled")

  // A period of centuries: tick 2's offset, 2 * period, does not fit in a long. Only a hand-run
  // scheduler reaches tick 2, so this is where the saturation is pinned. A tick rung on time or
  // late leaves a next delay that fits in a long, which even a wrapped offset gives right
  // (wrapping cancels out in the subtraction); a tick rung early by the ticker's own clock (a
  // scheduler whose clock runs ahead) does not: there a wrapped offset is a tick 2 due at once.
  test("a period so long that 2 periods overflow: tick 2 is never asked for at once"):
    val now = java.util.concurrent.atomic.AtomicLong(0L)
    val scheduler = HandScheduler()
    val period = weft.internal.runtime.Delays.Longest // about 292 years
    val ticker = new Ticker(period, scheduler, () => now.get)
    val (d1, tick1) = scheduler.only()
    assertEquals(d1, period.toMillis)
    now.set(period.toNanos / 2) // tick 1 rings half a period early by the ticker's clock
    tick1.run()
    assertEquals(ticker.ticks, 1L)
    val (d2, _) = scheduler.only()
    assert(d2 >= period.toMillis / 2, s"tick 2 asked for in $d2 ms, half a period is left")
    ticker.cancel()
    assertEquals(scheduler.pendingCount, 0)

  test("cancel makes every waiting and later await return false, and frees the scheduler"):
    holdsIn(20):
      Async.blocking:
        val timersBefore = pendingTimers
        val ticker = Ticker(1.hour)
        val waiting = Future(Async.await(ticker))
        awaitCondition("the await registered")(ticker.listenerCount == 1)
        ticker.cancel()
        assertEquals(waiting.result, Success(false))
        assertEquals(Async.await(ticker), false)
        assertEquals(ticker.listenerCount, 0)
        assert(ticker.isCancelled)
        awaitCondition("the ticker's entry left the scheduler")(pendingTimers <= timersBefore)

  test("a ticker stops with the scope that created it"):
    holdsIn(20):
      Async.blocking:
        val ticker = Async.group(Ticker(5.millis))
        assert(ticker.isCancelled, "the ticker outlived its scope")
        val seen = ticker.ticks
        sleep(30)
        assertEquals(ticker.ticks, seen)

  test("a ticker races like any source; the loser's listener is dropped"):
    holdsIn(20):
      Async.blocking:
        val ticker = Ticker(1.hour)
        val timer = Timer(5.millis)
        assertEquals(Async.await(Async.either(ticker, timer)), Right(true))
        // the winning timer drops the race from the ticker after waking the awaiter
        awaitCondition("the losing listener dropped")(ticker.listenerCount == 0)
        ticker.cancel()

  test("values reads a source as an iterator of its values"):
    holdsIn(20):
      Async.blocking:
        val ticker = Ticker(2.millis)
        assertEquals(ticker.values.take(3).toList, List(true, true, true))
        ticker.cancel()
        assertEquals(ticker.values.take(2).toList, List(false, false))
        val f = Future(7)
        assertEquals(f.values.take(2).toList, List(Success(7), Success(7)))

  test("values stops with a CancellationException when the reader's scope is cancelled"):
    holdsIn(20):
      Async.blocking:
        val ticker = Ticker(1.hour)
        val reader = Future(ticker.values.foreach(_ => ()))
        awaitCondition("the reader waits")(ticker.listenerCount == 1)
        reader.cancel()
        assert(reader.result.failed.get.isInstanceOf[CancellationException])
        awaitCondition("the reader's listener dropped")(ticker.listenerCount == 0)
        ticker.cancel()

  test("a period that is not positive is rejected at the call"):
    Async.blocking:
      val e = intercept[IllegalArgumentException](Ticker(0.millis))
      assert(e.getMessage.contains("period"), e.getMessage)
      intercept[IllegalArgumentException](Ticker(-1))
      intercept[IllegalArgumentException](Ticker(0))
