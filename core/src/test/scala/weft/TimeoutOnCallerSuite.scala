package weft

import java.util.concurrent.{CancellationException, CountDownLatch, TimeUnit, TimeoutException}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicReference}
import scala.concurrent.duration.*
import weft.*

/**
 * `withTimeout` runs its body on the caller's own thread: the same thread, its thread-locals,
 * a timer that ends the block only (its waits, the futures it started), and a caller left as it
 * was afterwards (not interrupted, not cancelled). On a platform-thread caller here, on a
 * virtual one in [[TimeoutOnCallerVirtualSuite]].
 */
class TimeoutOnCallerSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("the body runs on the caller's thread"):
    val caller = Thread.currentThread()
    Async.blocking:
      val seen = withTimeout(5.seconds)(Thread.currentThread())
      assert(seen eq caller, s"body ran on $seen, caller is $caller")
      val late = withTimeoutOption(20.millis) { sleep(60_000); Thread.currentThread() }
      assertEquals(late, None)

  test("the caller's thread-locals are visible in the body, and the body's to the caller"):
    val local = ThreadLocal.withInitial[String](() => "unset")
    val forkLocal = ForkLocal("unset")
    Async.blocking:
      local.set("caller")
      forkLocal.where("caller-fork"):
        val seen = withTimeout(5.seconds)((local.get, forkLocal.get))
        assertEquals(seen, ("caller", "caller-fork"))
      withTimeout(5.seconds)(local.set("body"))
      assertEquals(local.get, "body")
    local.remove()

  test("the timer cancels the futures the block started, and joins them before returning"):
    val childStarted = CountDownLatch(1)
    val childEnd = AtomicReference[Throwable | Null](null)
    val childEnded = AtomicBoolean()
    Async.blocking:
      val r = withTimeoutOption(50.millis):
        Future:
          childStarted.countDown()
          try sleep(60_000)
          catch case e: Throwable => childEnd.set(e)
          finally childEnded.set(true)
        childStarted.await()
        sleep(60_000)
      assertEquals(r, None)
      assert(childEnded.get, "a future of the block outlived withTimeout")
      assert(childEnd.get.isInstanceOf[CancellationException], childEnd.get)

  test("the timer cancels the block's futures at once, while the block is uninterruptible"):
    val childCancelled = CountDownLatch(1)
    val seenInBlock = AtomicBoolean()
    Async.blocking:
      val r = withTimeoutOption(30.millis):
        Future:
          try sleep(60_000)
          catch case _: CancellationException => childCancelled.countDown()
        uninterruptible(seenInBlock.set(childCancelled.await(10, TimeUnit.SECONDS)))
        1
      assertEquals(r, None, "the timeout was not raised at the end of the uninterruptible part")
    assert(seenInBlock.get, "the block's future was not cancelled when the time was up")

  test("after a timeout the caller is neither interrupted nor cancelled: it can wait again"):
    Async.blocking:
      for i <- 1 to 20 do
        intercept[TimeoutException](withTimeout(1.milli)(sleep(60_000)))
        assert(!Thread.currentThread().isInterrupted, s"round $i: the caller was left interrupted")
        sleep(2) // a wait of the caller's own: must wait, not throw
        assertEquals(Future(i).await, i)
      val inFuture = Future:
        intercept[TimeoutException](withTimeout(1.milli)(sleep(60_000)))
        sleep(2)
        "waited"
      assertEquals(inFuture.await, "waited")

  test("a timeout firing while the body returns leaves nothing behind (short run)"):
    Async.blocking(TimeoutOnCallerSuite.fireVersusReturn(2_000))

  test("a timeout inside a caller's uninterruptible block still fires"):
    Async.blocking:
      val inRoot = uninterruptible(withTimeoutOption(20.millis) { sleep(60_000); 1 })
      assertEquals(inRoot, None)
      val f = Future(uninterruptible(withTimeoutOption(20.millis) { sleep(60_000); 1 }))
      assertEquals(f.await, None)

  test("nested limits: the inner one ends its block only, the outer one ends both"):
    Async.blocking:
      val inner = withTimeout(10.seconds):
        val r = withTimeoutOption(20.millis)(sleep(60_000))
        sleep(2) // the outer block goes on
        r
      assertEquals(inner, None)
      // The outer limit ends the inner block as a cancellation (not an interrupt, not the
      // inner's own timeout), which the inner call passes on.
      val innerSaw = AtomicReference[Throwable | Null](null)
      val outer = withTimeoutOption(30.millis):
        try withTimeout(60.seconds)(sleep(60_000))
        catch
          case e: Throwable =>
            innerSaw.set(e)
            throw e
      assertEquals(outer, None)
      assert(
        innerSaw.get.isInstanceOf[CancellationException],
        s"the inner block saw ${innerSaw.get}"
      )

  test("the caller's own cancellation wins over the block's value-less end"):
    Async.blocking:
      val inBody = CountDownLatch(1)
      val f = Future:
        withTimeout(60.seconds):
          inBody.countDown()
          sleep(60_000)
      inBody.await()
      f.cancel()
      assert(f.result.failed.get.isInstanceOf[CancellationException])

/** [[TimeoutOnCallerSuite]] with a virtual-thread caller. */
class TimeoutOnCallerVirtualSuite extends TimeoutOnCallerSuite, OnVirtualThread

object TimeoutOnCallerSuite:

  /**
   * `rounds` limits that fire about when their body returns (a spin of about the limit, then a
   * short wait): every round ends with the value or `None`, and after each the caller is not
   * interrupted and its own waits wait.
   */
  def fireVersusReturn(rounds: Int)(using Async): Unit =
    val rnd = scala.util.Random(41)
    for i <- 1 to rounds do
      val limitNanos = 20_000L + rnd.nextInt(60_000)
      val r = withTimeoutOption(limitNanos.nanos):
        val until = System.nanoTime() + limitNanos - 10_000 + rnd.nextInt(20_000)
        while System.nanoTime() < until do Thread.onSpinWait()
        if rnd.nextBoolean() then Future(i).await
        else i
      r.foreach(v => assert(v == i, s"round $i returned $v"))
      assert(!Thread.currentThread().isInterrupted, s"round $i: the caller was left interrupted")
      // The caller's next wait must be a wait: a leaked interrupt or cancellation throws here.
      sleep(50.micros)
