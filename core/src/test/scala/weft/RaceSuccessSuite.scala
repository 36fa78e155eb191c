package weft

import java.util.concurrent.{CancellationException, CountDownLatch}
import java.util.concurrent.atomic.AtomicInteger

/** `raceSuccess`: the first success wins, losers cancelled and joined, all failures kept. */
class RaceSuccessSuite extends munit.FunSuite, weft.testing.StressChecks, weft.testing.Deadlined:

  def holdsIn(seconds: Int)(body: => Unit): Unit = withinDeadline(seconds, "weft-race-")(body)

  test("the first success wins, over an earlier failure"):
    Async.blocking:
      val r = raceSuccess(throw IllegalStateException("x"), { sleep(20); "slow" }, "fast")
      assertEquals(r, "fast")
      assertEquals(
        raceSuccess[Int]({ sleep(10); throw IllegalStateException("x") }, { sleep(40); 2 }),
        2
      )

  test("the losers are cancelled and have ended when it returns"):
    holdsIn(20):
      val ended = AtomicInteger()
      val started = CountDownLatch(2)
      Async.blocking:
        def loser(using Async): Int =
          started.countDown()
          try sleep(60_000)
          finally ended.incrementAndGet(): Unit
          0
        val r = raceSuccess(loser, loser, { started.await(); 7 })
        assertEquals(r, 7)
        assertEquals(ended.get, 2)

  test("if all fail, every failure is reported, first to last"):
    Async.blocking:
      val e = intercept[AllFailedException]:
        raceSuccess[Int](
          throw IllegalStateException("a"),
          { sleep(30); throw IllegalStateException("b") },
          { sleep(60); throw IllegalStateException("c") }
        )
      assertEquals(e.failures.map(_.getMessage), List("a", "b", "c"))
      assertEquals(e.getCause.getMessage, "a")
      assertEquals(e.getSuppressed.toList.map(_.getMessage), List("b", "c"))

  test("cancelling the caller cancels every body and waits for them"):
    holdsIn(20):
      val started = CountDownLatch(2)
      val ended = AtomicInteger()
      Async.blocking:
        def body(using Async): Int =
          started.countDown()
          try sleep(60_000)
          finally ended.incrementAndGet(): Unit
          0
        val caller = Future(raceSuccess(body, body))
        started.await()
        caller.cancel()
        assert(caller.result.failed.get.isInstanceOf[CancellationException])
      assertEquals(ended.get, 2)

  test("an empty race is rejected at the call"):
    Async.blocking:
      val e = intercept[IllegalArgumentException](raceSuccess[Int]())
      assert(e.getMessage.contains("at least one"), e.getMessage)
