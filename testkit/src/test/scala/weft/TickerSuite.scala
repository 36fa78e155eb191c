package weft

import java.util.concurrent.CancellationException
import scala.concurrent.duration.*
import scala.util.Success
import weft.*
import weft.testing.VirtualTesting.*
import weft.testkit.*

/**
 * Ticker (periodic timer) and `Source.values`: ticks on schedule, skipping, stopping. On virtual
 * time, so every tick's instant is asserted exactly, whatever the machine's load.
 */
class TickerSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("a ticker offers true at every tick, never before its time"):
    VirtualTime.run:
      val ticker = Ticker(10.millis)
      for k <- 1 to 3 do
        assertEquals(Async.await(ticker), true)
        assertEquals((currentTime, ticker.ticks), (k * 10.millis, k.toLong))
      ticker.cancel()

  test("a ticker of 1 s ticks exactly 86,400 times in a virtual day"):
    VirtualTime.run:
      val ticker = Ticker(1.second)
      var n = 0
      while currentTime < 1.day do
        assert(Async.await(ticker))
        n += 1
        assertEquals(currentTime, n.seconds)
      assertEquals((n, ticker.ticks), (86_400, 86_400L))
      ticker.cancel()

  // A scheduler that rings late, on virtual time: the property is the schedule the ticker asks
  // for, which the delays it asks for and the instants its ticks ring show exactly.
  test("ticks do not drift: tick k is due k periods after the start; a late one skips the missed"):
    VirtualTime.run:
      val late =
        ShiftingScheduler(
          summon[Async].support.scheduler,
          k => Map(1 -> 3L, 2 -> 25L).getOrElse(k, 0L) * 1_000_000L
        )
      def askedMillis = late.delays.map(_ / 1_000_000L)
      val ticker = new Ticker(10.millis, late, summon[Async].support.clock)
      assert(Async.await(ticker))
      assertEquals((currentTime, ticker.ticks), (13.millis, 1L), "tick 1 rings 3 ms late")
      assertEquals(askedMillis, List(10L, 7L), "tick 2 is due at 20 ms, not 10 ms after tick 1")
      assert(Async.await(ticker))
      assertEquals(
        (currentTime, ticker.ticks),
        (45.millis, 2L),
        "tick 2 rings after 3 and 4 were due"
      )
      assertEquals(
        askedMillis,
        List(10L, 7L, 5L),
        "the next is tick 5, due at 50 ms: 3 and 4 skipped"
      )
      assert(Async.await(ticker))
      assertEquals((currentTime, ticker.ticks), (50.millis, 5L))
      ticker.cancel()
      assertEquals(scopeTimers, 0, "a cancelled ticker leaves no tick scheduled")

  // A period of centuries: tick 2's offset, 2 * period, does not fit in a long. A tick rung on
  // time or late leaves a next delay that fits in a long, which even a wrapped offset gives right
  // (wrapping cancels out in the subtraction); a tick rung early by the ticker's own clock (a
  // scheduler whose clock runs ahead) does not: there a wrapped offset is a tick 2 due at once.
  test("a period so long that 2 periods overflow: tick 2 is never asked for at once"):
    VirtualTime.run:
      val period = weft.internal.runtime.Delays.Longest // about 292 years
      val half = period.toNanos / 2
      val early =
        ShiftingScheduler(summon[Async].support.scheduler, k => if k == 1 then -half else 0L)
      val ticker = new Ticker(period, early, summon[Async].support.clock)
      assert(Async.await(ticker))
      assertEquals((currentTime, ticker.ticks), ((period.toNanos - half).nanos, 1L))
      assertEquals(early.delays.head, period.toNanos)
      val d2 = early.delays(1)
      assert(d2 >= half, s"tick 2 asked for in ${d2.nanos.toMillis} ms, half a period is left")
      ticker.cancel()
      assertEquals(scopeTimers, 0)

  test("cancel makes every waiting and later await return false, and frees the scheduler"):
    VirtualTime.run:
      val ticker = Ticker(1.hour)
      val waiting = Future(Async.await(ticker))
      runUntilIdle()
      assertEquals(ticker.listenerCount, 1, "the await registered")
      ticker.cancel()
      assertEquals(waiting.result, Success(false))
      assertEquals(Async.await(ticker), false)
      assertEquals(ticker.listenerCount, 0)
      assert(ticker.isCancelled)
      assertEquals(scopeTimers, 0, "the ticker's entry left the scheduler")
      assertEquals(currentTime, Duration.Zero)

  test("a ticker stops with the scope that created it"):
    VirtualTime.run:
      val ticker = Async.group(Ticker(5.millis))
      assert(ticker.isCancelled, "the ticker outlived its scope")
      assertEquals(scopeTimers, 0)
      sleep(30)
      assertEquals(ticker.ticks, 0L)

  test("a ticker races like any source; the loser's listener is dropped"):
    VirtualTime.run:
      val ticker = Ticker(1.hour)
      val timer = Timer(5.millis)
      assertEquals(Async.await(Async.either(ticker, timer)), Right(true))
      assertEquals(currentTime, 5.millis)
      runUntilIdle()
      assertEquals(ticker.listenerCount, 0, "the losing listener dropped")
      ticker.cancel()

  test("values reads a source as an iterator of its values"):
    VirtualTime.run:
      val ticker = Ticker(2.millis)
      assertEquals(ticker.values.take(3).toList, List(true, true, true))
      assertEquals(currentTime, 6.millis)
      ticker.cancel()
      assertEquals(ticker.values.take(2).toList, List(false, false))
      val f = Future(7)
      assertEquals(f.values.take(2).toList, List(Success(7), Success(7)))
      assertEquals(currentTime, 6.millis)

  test("values stops with a CancellationException when the reader's scope is cancelled"):
    VirtualTime.run:
      val ticker = Ticker(1.hour)
      val reader = Future(ticker.values.foreach(_ => ()))
      runUntilIdle()
      assertEquals(ticker.listenerCount, 1, "the reader waits")
      reader.cancel()
      assert(reader.result.failed.get.isInstanceOf[CancellationException])
      runUntilIdle()
      assertEquals(ticker.listenerCount, 0, "the reader's listener dropped")
      ticker.cancel()
      assertEquals(currentTime, Duration.Zero)

  test("a period that is not positive is rejected at the call"):
    Async.blocking:
      val e = intercept[IllegalArgumentException](Ticker(0.millis))
      assert(e.getMessage.contains("period"), e.getMessage)
      intercept[IllegalArgumentException](Ticker(-1))
      intercept[IllegalArgumentException](Ticker(0))
