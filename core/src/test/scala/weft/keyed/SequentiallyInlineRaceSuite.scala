package weft.keyed

import java.util.concurrent.atomic.AtomicInteger
import weft.*
import weft.testing.InvariantChecks

/**
 * Two `run`s of an idle key started at the same instant: both see the key idle, but only the one
 * that installs the key's entry may run its body inline; the other must queue behind it. Two
 * fibers meet at a spin barrier before each round (a blocking barrier wakes one of them tens of
 * microseconds after the other, too late to meet it), on a fresh key each round, and the bodies
 * count how many run at once.
 */
class SequentiallyInlineRaceSuite extends munit.FunSuite, InvariantChecks:

  test("two runs of an idle key started at once never run together"):
    val rounds = 2000
    val active = AtomicInteger()
    val overlaps = AtomicInteger()
    holdsWithin(60, "Sequentially runs one task of a key at a time"):
      Async.blocking:
        val seq = Sequentially[Int]()
        val arrived = AtomicInteger()
        def meet(round: Int): Unit =
          arrived.incrementAndGet()
          var spins = 0
          while arrived.get < 2 * (round + 1) do
            if Thread.currentThread().isInterrupted then throw InterruptedException()
            if spins < 10_000 then Thread.onSpinWait() else Thread.`yield`()
            spins += 1
        def body(): Unit =
          if active.incrementAndGet() > 1 then overlaps.incrementAndGet()
          var spins = 0
          while spins < 1000 do // long enough for the other run to arrive
            Thread.onSpinWait()
            spins += 1
          active.decrementAndGet()
        val runners = (0 until 2).map: _ =>
          Future:
            for key <- 0 until rounds do
              meet(key)
              seq.run(key)(body())
        runners.foreach(_.await)
        assertEquals(seq.activeKeys, 0)
    assertEquals(overlaps.get, 0, s"two runs of one key overlapped in ${overlaps.get} rounds")
