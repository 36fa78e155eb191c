package weft

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import weft.*
import weft.Retry.{Delay, Jitter}
import weft.testing.VirtualTesting.scopeTimers
import weft.testkit.*

/**
 * Retry policies and retry: exact attempt counts, delays, jitter bounds, bad input. The pauses
 * run on virtual time, so each attempt's instant is asserted exactly.
 */
class RetrySuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A body failing on its first `failures` attempts with "fail <n>", then returning n. */
  private class Flaky(failures: Int):
    val attempts = AtomicInteger()
    private val at = java.util.concurrent.ConcurrentLinkedQueue[FiniteDuration]()

    /** The virtual instant of each attempt, in order (inside `VirtualTime.run`). */
    def instants: List[FiniteDuration] = at.toArray.toList.map(_.asInstanceOf[FiniteDuration])

    /** An attempt that records its virtual instant. */
    def timed()(using clock: VirtualClock): Int =
      at.add(currentTime)
      apply()
    def apply(): Int =
      val n = attempts.incrementAndGet()
      if n <= failures then throw IllegalStateException(s"fail $n") else n

  test("the first success is returned after the failures before it"):
    val b = Flaky(2)
    assertEquals(Async.blocking(retry(Retry(5))(b())), 3)
    assertEquals(b.attempts.get, 3)

  test("maxRetries = n gives up after n + 1 attempts, throwing the last failure"):
    for n <- 1 to 4 do
      val b = Flaky(100)
      val e = intercept[IllegalStateException](Async.blocking(retry(Retry(n))(b())))
      assertEquals(e.getMessage, s"fail ${n + 1}")
      assertEquals(b.attempts.get, n + 1)

  test("Retry(0) runs the body once and does not retry"):
    val b = Flaky(100)
    val e = intercept[IllegalStateException](Async.blocking(retry(Retry(0))(b())))
    assertEquals(e.getMessage, "fail 1")
    assertEquals(b.attempts.get, 1)

  test("Retry.forever retries until success"):
    val b = Flaky(20)
    assertEquals(Async.blocking(retry(Retry.forever(Delay.None))(b())), 21)

  test("a failure rejected by retryOn is thrown at once"):
    val b = Flaky(100)
    val policy = Retry(10, retryOn = !_.isInstanceOf[IllegalStateException])
    intercept[IllegalStateException](Async.blocking(retry(policy)(b())))
    assertEquals(b.attempts.get, 1)

  test("an InterruptedException is not retried"):
    val attempts = AtomicInteger()
    // munit's intercept does not catch InterruptedException (it is not NonFatal): catch it here
    val thrown =
      try
        Async.blocking(retry(Retry(10)) {
          attempts.incrementAndGet(); throw InterruptedException("x")
        })
        None
      catch case e: InterruptedException => Some(e.getMessage)
    assertEquals(thrown, Some("x"))
    assertEquals(attempts.get, 1)

  test("a constant delay pauses before each retry"):
    val b = Flaky(3)
    VirtualTime.run:
      assertEquals(retry(Retry(5, Delay.Constant(25.millis)))(b.timed()), 4)
      assertEquals(b.instants, List(0, 25, 50, 75).map(_.millis))
      assertEquals(currentTime, 75.millis)

  test("exponential delays pause exactly, growing by the factor up to the cap"):
    val b = Flaky(5)
    VirtualTime.run:
      assertEquals(retry(Retry(5, Delay.Exponential(10.millis, 50.millis)))(b.timed()), 6)
      assertEquals(b.instants, List(0, 10, 30, 70, 120, 170).map(_.millis))

  test("an exponential backoff whose pauses add up to one hour succeeds at exactly one hour"):
    val b = Flaky(4)
    VirtualTime.run:
      // pauses of 4, 8, 16 and 32 minutes: one hour in all
      assertEquals(retry(Retry(4, Delay.Exponential(4.minutes, 1.hour)))(b.timed()), 5)
      assertEquals(b.instants, List(0, 4, 12, 28, 60).map(_.minutes))
      assertEquals(currentTime, 1.hour)

  test("exponential delays grow by the factor up to the cap"):
    val p = Retry(0, Delay.Exponential(10.millis, 50.millis))
    assertEquals(
      p.delays(java.util.Random(1)).take(6).toList.map(_.toMillis),
      List(10L, 20, 40, 50, 50, 50)
    )
    val p3 = Retry(0, Delay.Exponential(1.milli, 1.hour, factor = 3))
    assertEquals(p3.delays(java.util.Random(1)).take(4).toList.map(_.toMillis), List(1L, 3, 9, 27))

  test("no delay and constant delay are what they say"):
    assert(Retry(3).delays(java.util.Random(1)).take(5).forall(_ == Duration.Zero))
    assert(
      Retry(3, Delay.Constant(7.millis)).delays(java.util.Random(1)).take(5).forall(_ == 7.millis)
    )

  test("full jitter stays in [0, d], equal jitter in [d/2, d], and both vary"):
    val base = Delay.Constant(100.millis)
    val full = Retry(0, base, Jitter.Full).delays(java.util.Random(42)).take(500).toList
    val equal = Retry(0, base, Jitter.Equal).delays(java.util.Random(42)).take(500).toList
    assert(full.forall(d => d >= Duration.Zero && d <= 100.millis))
    assert(equal.forall(d => d >= 50.millis && d <= 100.millis))
    assert(full.distinct.size > 100)
    assert(equal.distinct.size > 100)

  test("decorrelated jitter stays within [base, min(max, 3 * previous)]"):
    val p = Retry(0, Delay.DecorrelatedJitter(10.millis, 1.second))
    val ds = p.delays(java.util.Random(7)).take(300).toList.map(_.toNanos)
    assert(ds.head == 10.millis.toNanos)
    ds.sliding(2).foreach:
      case List(prev, d) =>
        assert(d >= 10.millis.toNanos && d <= math.min(1.second.toNanos, 3 * prev), s"$prev -> $d")
      case _ => ()
    assert(ds.distinct.size > 50)

  test("full jitter of the largest pause stays in [0, d] and never overflows"):
    val huge = FiniteDuration(Long.MaxValue, NANOSECONDS)
    val ds = Retry(0, Delay.Constant(huge), Jitter.Full).delays(java.util.Random(3)).take(500)
    assert(ds.forall(d => d >= Duration.Zero && d <= huge))
    val eq = Retry(0, Delay.Constant(huge), Jitter.Equal).delays(java.util.Random(3)).take(500)
    assert(eq.forall(d => d >= huge / 2 && d <= huge))

  // A generator whose every draw is 0: full jitter then pauses 0, so the retries run at once;
  // the range check of `nextLong(origin, bound)` still runs, as with any generator.
  test("a huge delay with full jitter retries and ends with the body's own error"):
    val zeros: java.util.random.RandomGenerator = () => 0L
    val policy = Retry(3, Delay.Constant(FiniteDuration(Long.MaxValue, NANOSECONDS)), Jitter.Full)
    val boom = IllegalStateException("the body's own error")
    val attempts = AtomicInteger()
    val e = intercept[IllegalStateException]:
      Async.blocking:
        retry(policy, zeros):
          attempts.incrementAndGet()
          throw boom
    assert(e eq boom, s"got $e")
    assertEquals(attempts.get, 4) // the first attempt and three retries

  test("a policy with a missing part is rejected when built, not at the first failure"):
    intercept[IllegalArgumentException](Retry(3, null))
    intercept[IllegalArgumentException](Retry(3, Delay.None, null))
    intercept[IllegalArgumentException](Retry(3, Delay.None, Jitter.None, null))

  test("cancelling the caller stops the retries"):
    val attempts = AtomicInteger()
    VirtualTime.run:
      Async.group:
        val f = Future(retry(Retry.forever(Delay.Constant(5.millis))) {
          attempts.incrementAndGet()
          throw IllegalStateException("again")
        })
        sleep(12.millis)
        assertEquals(attempts.get, 3, "attempts at 0, 5 and 10 ms")
        f.cancel()
        assert(f.result.failed.get.isInstanceOf[CancellationException])
      assertEquals(scopeTimers, 0, "the cancelled pause left its timer")
      sleep(40)
      assertEquals(attempts.get, 3)

  test("a custom delay is a function of the step and the previous pause"):
    val seen = collection.mutable.ArrayBuffer[(Int, Long)]()
    val p = Retry(
      0,
      Delay.Custom { (k, previous) =>
        seen += ((k, previous.toMillis))
        previous + k.millis
      }
    )
    assertEquals(p.delays(java.util.Random(1)).take(4).toList.map(_.toMillis), List(1L, 3, 6, 10))
    assertEquals(seen.toList, List((1, 0L), (2, 1L), (3, 3L), (4, 6L)))
    intercept[IllegalArgumentException](Delay.Custom(null))

  test("a custom delay that is negative is reported with the body's failure"):
    val b = Flaky(100)
    val e = intercept[IllegalStateException]:
      Async.blocking(retry(Retry(3, Delay.Custom((_, _) => -1.millis)))(b()))
    assertEquals(e.getMessage, "fail 1")
    assert(e.getSuppressed.exists(_.isInstanceOf[IllegalArgumentException]), e.getSuppressed.toList)
    assertEquals(b.attempts.get, 1)

  test("untilFailure repeats the body while it succeeds and throws its first failure"):
    val runs = AtomicInteger()
    VirtualTime.run:
      val e = intercept[IllegalStateException]:
        retry(Retry.untilFailure(Delay.Constant(1.milli))):
          if runs.incrementAndGet() == 5 then throw IllegalStateException("stop")
      assertEquals(e.getMessage, "stop")
      assertEquals(currentTime, 4.millis, "a pause after each of the four successes")
    assertEquals(runs.get, 5)

  test("untilFailure with retries counts consecutive failures only"):
    // fails on runs 2, 4, 5, 6: one failure is tolerated, so the run ends at the second in a row
    val runs = AtomicInteger()
    val e = intercept[IllegalStateException]:
      Async.blocking:
        retry(Retry(1, repeatOnSuccess = true)):
          val n = runs.incrementAndGet()
          if n == 2 || n >= 4 then throw IllegalStateException(s"fail $n")
    assertEquals(e.getMessage, "fail 5")

  test("cancelling the caller stops untilFailure"):
    val runs = AtomicInteger()
    VirtualTime.run:
      val f = Future(retry(Retry.untilFailure(Delay.Constant(1.milli)))(runs.incrementAndGet()))
      sleep(2500.micros)
      assertEquals(runs.get, 3, "runs at 0, 1 and 2 ms")
      f.cancel()
      assert(f.result.failed.get.isInstanceOf[CancellationException])
      sleep(10.millis)
      assertEquals(runs.get, 3)

  test("bad policies are an IllegalArgumentException at construction"):
    intercept[IllegalArgumentException](Retry(-1))
    intercept[IllegalArgumentException](Delay.Constant(-1.millis))
    intercept[IllegalArgumentException](Delay.Exponential(2.seconds, 1.second))
    intercept[IllegalArgumentException](Delay.Exponential(1.milli, 1.second, factor = 0.5))
    intercept[IllegalArgumentException](Delay.DecorrelatedJitter(-1.milli, 1.second))
    intercept[IllegalArgumentException](Retry(
      3,
      Delay.DecorrelatedJitter(1.milli, 1.second),
      Jitter.Full
    ))
