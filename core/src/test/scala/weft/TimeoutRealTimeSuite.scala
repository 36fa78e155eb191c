package weft

import java.util.concurrent.atomic.AtomicBoolean
import scala.concurrent.duration.*
import weft.*
import weft.testing.TimeTesting.*

/**
 * withTimeout's races with the real clock: a value produced as the time runs out, and reads
 * under timeouts of a millisecond. Virtual time cannot model them (a running body holds the
 * virtual clock still, so its timeout never fires meanwhile); the rest of withTimeout's tests
 * run on virtual time (`TimeoutSuite`, in the test kit's module).
 */
class TimeoutRealTimeSuite extends munit.FunSuite, weft.testing.StressChecks:

  test("a value produced as the timeout fires is returned, never discarded"):
    Async.blocking:
      // A body that never waits cannot be cut short: it returns its value after the time is up.
      // A body whose fiber had not started when the time was up never runs (None is right
      // then): on a loaded machine that happens, so each call is retried until its body ran.
      val started = AtomicBoolean()
      def busy(v: Int): Int =
        started.set(true)
        val until = System.nanoTime() + 100_000_000L
        while System.nanoTime() < until do Thread.onSpinWait()
        v
      def once[T](call: => T): Option[T] =
        started.set(false)
        val r = scala.util.Try(call)
        if started.get then Some(r.get) else None
      def untilStarted[T](call: => T): T =
        Iterator.continually(once(call)).take(50).flatten.nextOption().getOrElse:
          fail("the body never started in 50 tries")
      assertEquals(untilStarted(withTimeoutOption(1.milli)(busy(7))), Some(7))
      assertEquals(untilStarted(withTimeout(1.milli)(busy(8))), 8)

  test("values read from a channel under short timeouts are all returned"):
    withinDeadline(60, "timeout-channel"):
      val n = 20_000
      val ch = weft.channels.BufferedChannel[Int](n)
      Async.blocking:
        for i <- 1 to n do ch.send(i)
      val got = scala.collection.mutable.ArrayBuffer[Int]()
      val rnd = scala.util.Random(3)
      Async.blocking:
        var rounds = 0
        while got.length < n && rounds < 3 * n do
          rounds += 1
          withTimeoutOption(rnd.nextInt(2).toLong)(ch.read().get).foreach(got += _)
      assertEquals(got.toVector, (1 to n).toVector, "a value read as its timeout fired was lost")
