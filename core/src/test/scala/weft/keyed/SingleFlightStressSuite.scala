package weft.keyed

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Failure, Random, Success}
import weft.{Async, Future, await}
import weft.testing.{Stress, StressChecks}

/**
 * Randomised stress of `SingleFlight`: caller fibers call a few keys while a third of the calls
 * are cancelled at random moments (before joining, while waiting, as the computation ends).
 * Whatever the interleaving: a caller not cancelled gets its key's value, never a cancellation
 * (a give-up never takes the computation from the others); nothing hangs; no key keeps state;
 * every computation started has ended when the owner's scope has.
 */
class SingleFlightStressSuite extends munit.FunSuite, StressChecks:
  override val munitTimeout = scala.concurrent.duration.Duration(300, "s")

  test("random cancels: the others served, no state left, every computation ended".tag(Stress.tag)):
    val callers = 8
    val opsEach = Stress.size(full = 100_000, sample = 1_500)
    withinDeadline(if Stress.full then 280 else 90, "single-flight-stress"):
      for seed <- 0 until 2 do run(keys = 4 << (seed * 3), callers, opsEach, seed)

  private def run(keys: Int, callers: Int, opsEach: Int, seed: Int): Unit =
    val started = AtomicInteger()
    val ended = AtomicInteger()
    val wrong = AtomicInteger()
    val cancelledOthers = AtomicInteger()
    val calls = AtomicInteger()
    def compute(k: Int, rnd: Random): (Int, Int) =
      val id = started.incrementAndGet()
      try
        rnd.nextInt(4) match
          case 0 => Thread.sleep(0, 200_000)
          case 1 => Thread.`yield`()
          case _ => ()
        (k, id)
      finally ended.incrementAndGet()
    Async.blocking:
      val sf = SingleFlight[Int, (Int, Int)]()
      val workers = (0 until callers).map: w =>
        Future:
          val rnd = Random(seed * 100 + w)
          for _ <- 0 until opsEach do
            val k = rnd.nextInt(keys)
            val crnd = Random(rnd.nextLong())
            calls.incrementAndGet()
            val call = Future(sf(k)(compute(k, crnd)))
            if rnd.nextInt(3) == 0 then
              rnd.nextInt(3) match
                case 0 => ()
                case 1 => Thread.`yield`()
                case _ => Thread.sleep(0, 100_000)
              call.cancel()
              call.result match
                case Success((`k`, _)) | Failure(_: CancellationException) => ()
                case other => wrong.incrementAndGet()
            else
              call.result match
                case Success((`k`, _))                 => ()
                case Failure(_: CancellationException) => cancelledOthers.incrementAndGet()
                case _                                 => wrong.incrementAndGet()
      workers.foreach(_.await)
      assertEquals(sf.inFlight, 0, "a key kept state once every call had ended")
    assertEquals(cancelledOthers.get, 0, "a caller that stayed got a cancellation")
    assertEquals(wrong.get, 0, "a caller got another key's value or a failure")
    assertEquals(ended.get, started.get, "a computation outlived the owner's scope")
    assert(started.get <= calls.get, s"${started.get} computations for ${calls.get} calls")
