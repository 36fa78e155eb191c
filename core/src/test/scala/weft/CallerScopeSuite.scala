package weft

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch}
import scala.jdk.CollectionConverters.*
import weft.testing.StressChecks

/**
 * A root scope's body runs on the thread that entered `Async.blocking` (platform or virtual),
 * and `uninterruptible` at the root defers an interrupt of that thread to the end of the block.
 */
class CallerScopeSuite extends munit.FunSuite, StressChecks, weft.testing.Deadlined:

  /** Runs `body` on a new thread of the kind asked for and returns what it threw, if anything. */
  private def onThread(virtual: Boolean)(body: => Unit): (Thread, () => Throwable | Null) =
    @volatile var thrown: Throwable | Null = null
    val builder = if virtual then Thread.ofVirtual() else Thread.ofPlatform()
    val t = builder.start: () =>
      try body
      catch case e: Throwable => thrown = e
    (t, () => thrown)

  test("the body sees the entering thread's thread-locals"):
    val local = ThreadLocal.withInitial[String](() => "unset")
    local.set("caller's")
    try assertEquals(Async.blocking(local.get), "caller's")
    finally local.remove()

  for virtual <- Seq(false, true) do
    val kind = if virtual then "virtual" else "platform"

    test(s"an interrupt of the $kind caller awaiting inside a root block is raised at its end"):
      withinDeadline(20, s"caller-scope-await-$kind"):
        val log = ConcurrentLinkedQueue[String]()
        val inBlock = CountDownLatch(1)
        val release = CountDownLatch(1)
        @volatile var child: Thread = null
        val (caller, thrown) = onThread(virtual):
          Async.blocking:
            val f = Future:
              child = Thread.currentThread()
              release.await()
              42
            uninterruptible:
              inBlock.countDown()
              log.add(s"awaited ${f.await}")
            log.add("after the block (must not run)")
        inBlock.await()
        caller.interrupt()
        while caller.getState != Thread.State.WAITING && caller.isAlive do Thread.onSpinWait()
        release.countDown()
        caller.join()
        assertEquals(log.asScala.toList, List("awaited 42"))
        assert(thrown().isInstanceOf[InterruptedException], s"got ${thrown()}")
        assert(!child.isAlive, "the child's thread outlived the scope")

    test(s"an interrupt pending when a $kind caller's root block begins does not reach inside"):
      withinDeadline(20, s"caller-scope-pending-$kind"):
        val log = ConcurrentLinkedQueue[String]()
        val (caller, thrown) = onThread(virtual):
          Async.blocking:
            Thread.currentThread().interrupt()
            uninterruptible:
              Thread.sleep(1)
              log.add("slept")
            log.add("after the block (must not run)")
        caller.join()
        assertEquals(log.asScala.toList, List("slept"))
        assert(thrown().isInstanceOf[InterruptedException], s"got ${thrown()}")

  /** munit's `intercept` rethrows an `InterruptedException` (not `NonFatal`): caught here. */
  private def interruptedBy(body: => Unit): InterruptedException =
    try
      body
      fail("no InterruptedException")
    catch case e: InterruptedException => e

  test("nested root blocks raise a deferred interrupt once, at the outermost end"):
    val log = ConcurrentLinkedQueue[String]()
    val e = interruptedBy:
      Async.blocking:
        uninterruptible:
          uninterruptible:
            Thread.currentThread().interrupt()
            log.add("inner")
          log.add("outer, after the inner block")
    assertEquals(log.asScala.toList, List("inner", "outer, after the inner block"))
    assert(e.getMessage.contains("uninterruptible"), e.getMessage)
    assert(!Thread.currentThread().isInterrupted, "the interrupt was raised and is still set")

  test("a root block without an interrupt returns its value"):
    assertEquals(Async.blocking(uninterruptible(Future(1).await + 1)), 2)

  test("outside a block, an interrupt of the caller fails the await at once"):
    Thread.currentThread().interrupt()
    val e = interruptedBy:
      Async.blocking:
        val never = Promise[Int]()
        never.future.await: Unit
    assert(e.getMessage == null, e.getMessage)
    assert(!Thread.currentThread().isInterrupted)
