package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import scala.jdk.CollectionConverters.*
import scala.util.{Failure, Try}
import weft.internal.futures.CoreFuture

/**
 * A body's own failure that ends after `cancel()` has already completed its future (a cancel
 * that raced with it) never vanishes: in a plain scope it goes to [[UnobservedFailures]] at once,
 * in a [[supervised]] scope that is failing it is attached to the scope's failure as suppressed.
 * The cancellation itself and an interrupt it provoked are not failures and are never reported.
 *
 * Each race is made deterministic: the body waits, deaf to interrupts (spinning, or inside
 * `uninterruptible`), until its future has been cancelled, then throws without reaching an
 * interruption point. Every test runs from a platform caller and from a virtual one.
 */
class LateFailureSuite extends munit.FunSuite, weft.testing.FailureChecks:

  /** Spins until `f` is done, deaf to interrupts (no interruption point, as a busy body). */
  def spinUntilDone(f: => Future[?] | Null): Unit =
    while
      val g = f
      g == null || !g.nn.asInstanceOf[CoreFuture[?]].isDone
    do Thread.onSpinWait()

  /**
   * Signals `started`, then waits for `latch`, swallowing interrupts: a body that ignores its
   * cancellation (the test cancels only once the body runs, else it would never start).
   */
  def awaitDeaf(started: CountDownLatch, latch: CountDownLatch): Unit =
    started.countDown()
    var done = false
    while !done do
      try
        latch.await()
        done = true
      catch case _: InterruptedException => ()

  onBothCallers("plain scope: a failure thrown after the cancel is reported, not dropped"):
    val started = CountDownLatch(1)
    val cancelDone = CountDownLatch(1)
    val boom = IllegalStateException("after the cancel")
    var outcome: Try[Int] | Null = null
    val reports = reported:
      Async.blocking:
        val f = Future[Int]:
          awaitDeaf(started, cancelDone)
          throw boom
        started.await()
        f.cancel()
        cancelDone.countDown()
        outcome = f.result
    assert(
      outcome.nn.failed.toOption.exists(_.isInstanceOf[CancellationException]),
      s"the cancel completed the future first: $outcome"
    )
    assertEquals(reports, List[Throwable](boom))

  onBothCallers(
    "plain scope: a failure thrown inside uninterruptible after the cancel is reported"
  ):
    val started = CountDownLatch(1)
    val cancelDone = CountDownLatch(1)
    val boom = IllegalStateException("inside uninterruptible")
    val reports = reported:
      Async.blocking:
        val f = Future[Int]:
          uninterruptible:
            awaitDeaf(started, cancelDone)
            throw boom
        started.await()
        f.cancel()
        cancelDone.countDown()
        f.result: Unit
    assertEquals(reports, List[Throwable](boom))

  onBothCallers("uninterruptible: a block that throws while cancelled rethrows its own failure"):
    val started = CountDownLatch(1)
    val cancelDone = CountDownLatch(1)
    val boom = IllegalStateException("own failure")
    val seen = ConcurrentLinkedQueue[Throwable]()
    reported:
      Async.blocking:
        val f = Future[Int]:
          try
            uninterruptible:
              awaitDeaf(started, cancelDone)
              throw boom
          catch
            case e: Throwable =>
              seen.add(e)
              throw e
        started.await()
        f.cancel()
        cancelDone.countDown()
        f.result: Unit
    : Unit
    assertEquals(seen.asScala.toList, List[Throwable](boom))

  onBothCallers("plain scope: the cancellation and the interrupt it provoked are not reported"):
    val started = CountDownLatch(2)
    val reports = reported:
      Async.blocking:
        val interrupted = Future[Int]:
          started.countDown()
          CountDownLatch(1).await() // InterruptedException, provoked by the cancel
          1
        val wrapped = Future[Int]:
          try
            started.countDown()
            Thread.sleep(60_000)
            2
          catch case e: InterruptedException => throw RuntimeException("wrapped", e)
        started.await()
        interrupted.cancel()
        wrapped.cancel()
        interrupted.result: Unit
        wrapped.result: Unit
    assertEquals(reports, Nil)

  onBothCallers("supervised: a failure after the scope's cancel is suppressed by the first"):
    val first = IllegalStateException("first")
    val second = IllegalArgumentException("second, after its cancel")
    @volatile var late: Future[Int] | Null = null
    val reports = reported:
      val thrown = intercept[IllegalStateException]:
        Async.blocking:
          supervised:
            late = Future[Int]:
              spinUntilDone(late) // until the first failure's cancel has completed it
              throw second
            Future[Int](throw first)
            weft.testing.UntilCancelled()
      assert(thrown eq first, thrown)
      assertEquals(thrown.getSuppressed.toList, List[Throwable](second))
    assertEquals(reports, Nil)

  onBothCallers("supervised: the body's own failure after the scope's cancel is suppressed too"):
    val first = IllegalStateException("first")
    val bodyFailure = IllegalArgumentException("the body's, after its cancel")
    val reports = reported:
      val thrown = intercept[IllegalStateException]:
        Async.blocking:
          supervised:
            val scope = Scope.current
            Future[Int](throw first)
            while !scope.isCancelled do Thread.onSpinWait()
            // the cancel that found the scope cancelled has completed the body's future or will:
            // the failure below is attached whichever wins
            throw bodyFailure
      assert(thrown eq first, thrown)
      assertEquals(thrown.getSuppressed.toList, List[Throwable](bodyFailure))
    assertEquals(reports, Nil)

  onBothCallers(
    "supervised: a fork cancelled on purpose that then fails is reported, the scope goes on"
  ):
    val boom = IllegalStateException("after a cancel on purpose")
    val started = CountDownLatch(1)
    val cancelDone = CountDownLatch(1)
    val reports = reported:
      val v = Async.blocking:
        supervised:
          val f = Future[Int]:
            awaitDeaf(started, cancelDone)
            throw boom
          started.await()
          f.cancel()
          cancelDone.countDown()
          f.result: Unit
          "still here"
      assertEquals(v, "still here")
    assertEquals(reports, List[Throwable](boom))

  test("two forks failing at nearly the same moment: both always accounted for"):
    withinDeadline(60, "late-failure-rounds"):
      for round <- 1 to 200 do
        val both = CountDownLatch(2)
        val reports = reported:
          val e = intercept[IllegalStateException]:
            Async.blocking:
              supervised:
                for i <- 1 to 2 do
                  Future:
                    both.countDown()
                    // no interruption point between here and the throw: both do fail
                    while both.getCount > 0 do Thread.onSpinWait()
                    throw IllegalStateException(s"fail $i")
                weft.testing.UntilCancelled()
          val all = (e +: e.getSuppressed.toSeq).map(_.getMessage).toList.sorted
          assertEquals(all, List("fail 1", "fail 2"), s"round $round")
        assertEquals(reports, Nil, s"round $round")
