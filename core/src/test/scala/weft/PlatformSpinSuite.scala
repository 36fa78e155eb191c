package weft

import java.util.concurrent.CountDownLatch
import weft.internal.runtime.PlatformSpin
import weft.testing.StressChecks

/**
 * A platform thread's await spins briefly before it parks, while few platform threads wait
 * ([[weft.internal.runtime.PlatformSpin]]): values arrive whether the spin or the park saw them, and every
 * await leaves the count of waiting platform threads as it found it, whichever way it ends.
 */
class PlatformSpinSuite extends munit.FunSuite, StressChecks:

  /** `n` spawn+await pairs of short futures in one root scope; returns their sum. */
  private def spawnAwaitLoop(n: Int): Long = Async.blocking:
    var sum = 0L
    var i = 0
    while i < n do
      val value = i
      sum += Future(value.toLong).await
      i += 1
    sum

  private def expectedSum(n: Int): Long = n.toLong * (n - 1) / 2

  test("a platform caller's awaits return every value and leave no waiter counted"):
    withinDeadline(30, "platform-spin-loop"):
      assertEquals(spawnAwaitLoop(2000), expectedSum(2000))
      assertEquals(PlatformSpin.waitingNow, 0)

  test("platform callers awaiting at once all get their values; none stays counted"):
    withinDeadline(60, "platform-spin-many"):
      val callers = 2 * PlatformSpin.MaxSpinningWaiters + 2
      val sums = new Array[Long](callers)
      val threads = (0 until callers).map: c =>
        Thread.ofPlatform().start(() => sums(c) = spawnAwaitLoop(500))
      threads.foreach(_.join())
      assertEquals(sums.toList, List.fill(callers)(expectedSum(500)))
      assertEquals(PlatformSpin.waitingNow, 0)

  test("an interrupted platform await is uncounted and throws InterruptedException"):
    withinDeadline(20, "platform-spin-interrupt"):
      val started = CountDownLatch(1)
      val release = CountDownLatch(1)
      @volatile var thrown: Throwable | Null = null
      val caller = Thread.ofPlatform().start: () =>
        try
          Async.blocking:
            val f = Future:
              started.countDown()
              release.await()
            f.await
        catch case e: Throwable => thrown = e
      started.await()
      while caller.getState != Thread.State.WAITING && caller.isAlive do Thread.onSpinWait()
      assertEquals(PlatformSpin.waitingNow, 1)
      caller.interrupt()
      caller.join()
      release.countDown()
      assert(thrown.isInstanceOf[InterruptedException], s"got $thrown")
      assertEquals(PlatformSpin.waitingNow, 0)

  test("a virtual caller's await is not counted"):
    withinDeadline(20, "platform-spin-virtual"):
      val started = CountDownLatch(1)
      val release = CountDownLatch(1)
      val caller = Thread.ofVirtual().start: () =>
        Async.blocking:
          val f = Future:
            started.countDown()
            release.await()
            7
          assertEquals(f.await, 7)
      started.await()
      while caller.getState != Thread.State.WAITING && caller.isAlive do Thread.onSpinWait()
      assertEquals(PlatformSpin.waitingNow, 0)
      release.countDown()
      caller.join()
