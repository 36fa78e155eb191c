package weft

import java.util.concurrent.{CancellationException, CountDownLatch}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicReference}
import java.util.concurrent.locks.LockSupport
import scala.concurrent.duration.DurationInt
import weft.internal.async.TimeoutRegion

/**
 * `uninterruptible` parts of a `withTimeout` block: a time-out that comes during a part is
 * raised when the outermost part ends, the part's waits still wait, an interrupt the timer
 * delivered before a part is not seen inside it nor by the caller, a part that throws gives the
 * block back to the timer, and the caller's own cancellation wins over the time-out. Each at a
 * root scope and in a future; on a platform-thread test thread here, on a virtual one in
 * [[TimeoutPartsVirtualSuite]].
 */
class TimeoutPartsSuite extends munit.FunSuite, weft.testing.Deadlined:

  private final class Boom extends RuntimeException("boom")

  /** The region of the `withTimeout` block whose context is `async`. */
  private def region(using async: Async): TimeoutRegion = async.asInstanceOf[TimeoutRegion]

  /** Waits, with no weft wait (so nothing is cut short), until the block's time is up. */
  private def untilTimedOut(r: TimeoutRegion): Unit =
    while !r.timedOut do LockSupport.parkNanos(100_000)

  /** Runs `check` at a root scope, then in a future of one. */
  private def atRootAndInFuture(name: String)(check: Async ?=> Unit): Unit =
    test(s"$name (root scope)")(Async.blocking(check))
    test(s"$name (in a future)")(Async.blocking(Future(check).await))

  atRootAndInFuture("a time-out during a part is raised at its end; the part's waits wait"):
    val reached = AtomicBoolean()
    val r = withTimeoutOption(1.milli):
      val block = region
      uninterruptible:
        untilTimedOut(block)
        sleep(1) // after the time is up, inside the part: still waits
        reached.set(true)
      "after the part"
    assertEquals(r, None)
    assert(reached.get, "a wait inside the part was cut short by the time-out")

  atRootAndInFuture("nested parts: the time-out is raised when the outermost one ends"):
    val outerEnded = AtomicBoolean()
    val r = withTimeoutOption(1.milli):
      val block = region
      uninterruptible:
        uninterruptible(untilTimedOut(block))
        sleep(1)
        outerEnded.set(true)
      "after the parts"
    assertEquals(r, None)
    assert(outerEnded.get, "the inner part's end raised the time-out inside the outer part")

  atRootAndInFuture("the timer's interrupt before a part is seen neither inside it nor after"):
    val reached = AtomicBoolean()
    val r = withTimeoutOption(1.milli):
      untilTimedOut(region) // no wait: the timer's interrupt is delivered and pending
      uninterruptible:
        sleep(1)
        reached.set(true)
      "after the part"
    assertEquals(r, None)
    assert(reached.get, "the part's wait saw the timer's interrupt")
    assert(!Thread.currentThread().isInterrupted, "the caller was left interrupted")
    sleep(1) // and the caller's own waits wait

  atRootAndInFuture("a part that throws gives the block back to the timer"):
    val r = withTimeoutOption(20.millis):
      try uninterruptible(throw Boom())
      catch case _: Boom => ()
      sleep(600_000) // ended by the timer, or the test's deadline fails it
      "slept"
    assertEquals(r, None)

  test("the caller's own cancellation, after the time is up, wins: no None, no value"):
    val inPart = CountDownLatch(1)
    val release = CountDownLatch(1)
    val wentOn = AtomicReference[String | Null](null)
    val ended = AtomicReference[Throwable | Null](null)
    Async.blocking:
      Async.group:
        val f = Future:
          try
            val r = withTimeoutOption(1.milli):
              val block = region
              uninterruptible:
                untilTimedOut(block)
                inPart.countDown()
                release.await() // a JDK wait: the deferred cancel does not interrupt it
              "x"
            wentOn.set(s"the body went on with $r")
          catch case e: Throwable => ended.set(e)
        inPart.await()
        f.cancel()
        release.countDown()
      // the group's end has joined the future's fiber
    assertEquals(wentOn.get, null)
    assert(ended.get.isInstanceOf[CancellationException], ended.get)

/** [[TimeoutPartsSuite]] with a virtual-thread test thread. */
class TimeoutPartsVirtualSuite extends TimeoutPartsSuite, OnVirtualThread
