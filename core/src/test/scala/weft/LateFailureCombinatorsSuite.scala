package weft

import java.util.concurrent.CountDownLatch

/**
 * The rule of [[LateFailureSuite]] (a body's own failure that ends after a cancel is never
 * lost), re-checked where the root scope and the combinators hold failures themselves: the root
 * scope's `uninterruptible`, [[raceSuccess]] and [[par]]. Each race is made deterministic with
 * latches, and each test runs from a platform caller and from a virtual one.
 */
class LateFailureCombinatorsSuite extends munit.FunSuite, weft.testing.FailureChecks:

  /** Spins, deaf to interrupts, until the current scope (a future's body) is cancelled. */
  def spinUntilCancelled()(using Async): Unit =
    val scope = Scope.current
    while !scope.isCancelled do Thread.onSpinWait()

  onBothCallers("root uninterruptible: a block that throws while interrupted rethrows its own"):
    val boom = IllegalStateException("own failure")
    var seen: Throwable | Null = null
    var stillInterrupted = false
    Async.blocking:
      try
        uninterruptible:
          Thread.currentThread().interrupt() // deferred by the block
          throw boom
      catch case e: Throwable => seen = e
      stillInterrupted = Thread.interrupted() // the interrupt stays pending
    assert(seen eq boom, s"the block's own failure, not the deferred interrupt: $seen")
    assert(stillInterrupted, "the deferred interrupt was dropped")

  onBothCallers("raceSuccess: a loser's own failure after the win is reported"):
    val started = CountDownLatch(2)
    val boom = IllegalStateException("a loser's, after the win")
    var value = 0
    val reports = reported:
      Async.blocking:
        value = raceSuccess(
          {
            started.await()
            1
          }, {
            started.countDown()
            spinUntilCancelled() // the win cancels it
            throw boom
          }, {
            started.countDown()
            CountDownLatch(1).await() // InterruptedException: the cancel's doing, not reported
            3
          }
        )
    assertEquals(value, 1)
    assertEquals(reports, List[Throwable](boom))

  onBothCallers("raceSuccess: the bodies' own failures go with the caller's interrupt"):
    val started = CountDownLatch(3)
    val early = IllegalStateException("before the interrupt")
    val late = IllegalArgumentException("after the interrupt")
    val caller = Thread.currentThread()
    val interrupter = Thread.ofPlatform().start: () =>
      started.await()
      caller.interrupt()
    val reports = reported:
      // not `intercept`, which lets an InterruptedException through
      val e =
        try
          Async.blocking:
            raceSuccess[Int](
              {
                started.countDown()
                throw early
              }, {
                started.countDown()
                spinUntilCancelled() // the scope's end after the interrupt cancels it
                throw late
              }, {
                started.countDown()
                CountDownLatch(1).await() // InterruptedException: not attached
                3
              }
            )
          fail("the interrupt was not raised")
        catch case ie: InterruptedException => ie
      assertEquals(e.getSuppressed.toSet, Set[Throwable](early, late))
    Thread.interrupted(): Unit // before the join, which would throw
    interrupter.join()
    assertEquals(reports, Nil)

  onBothCallers("par: failures recorded while the caller is interrupted are suppressed by it"):
    val started = CountDownLatch(1)
    val boom = IllegalStateException("a worker's, after the caller's interrupt")
    val caller = Thread.currentThread()
    val interrupter = Thread.ofPlatform().start: () =>
      started.await()
      caller.interrupt()
    val reports = reported:
      // not `intercept`, which lets an InterruptedException through
      val e =
        try
          Async.blocking:
            par(
              {
                started.countDown()
                spinUntilCancelled() // the scope's end after the interrupt cancels it
                throw boom
              }, {
                CountDownLatch(1).await() // InterruptedException: not attached
                2
              }
            )
          fail("the interrupt was not raised")
        catch case ie: InterruptedException => ie
      assertEquals(e.getSuppressed.toList, List[Throwable](boom))
    Thread.interrupted(): Unit // before the join, which would throw
    interrupter.join()
    assertEquals(reports, Nil)

  onBothCallers("par: a later failure caused by the cancel (an interrupt wrapped) is not attached"):
    val started = CountDownLatch(1)
    val boom = IllegalStateException("first")
    val e = intercept[IllegalStateException]:
      Async.blocking:
        par(
          {
            started.await()
            throw boom
          }, {
            try
              started.countDown()
              Thread.sleep(60_000)
              2
            catch case ie: InterruptedException => throw RuntimeException("wrapped", ie)
          }
        )
    assert(e eq boom, e)
    assertEquals(e.getSuppressed.toList, Nil)
