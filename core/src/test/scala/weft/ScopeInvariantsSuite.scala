package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters.*
import weft.runtime.{AsyncSupport, Fiber, Scheduler}
import weft.testing.InvariantChecks
import weft.internal.async.AsyncContext

/**
 * The scope invariants, each forced by latches rather than left to timing: a scope entered from
 * a virtual thread cancels what is still running; cancelling a group cancels its members at
 * once; `Async.group` cancels its futures when its body ends; `cancel()` cancels a future's
 * children at once, while the future itself is still running; a scope's join waits for the
 * threads of members that left the group but have not terminated yet. A broken invariant fails
 * within seconds and says which.
 */
class ScopeInvariantsSuite extends munit.FunSuite, InvariantChecks:

  /** Starts a future whose body records its thread and then sleeps for a minute. */
  private def sleeper(threads: ConcurrentLinkedQueue[Thread], started: CountDownLatch)(using
      Async
  ): Future[Unit] =
    Future:
      threads.add(Thread.currentThread())
      started.countDown()
      Thread.sleep(60_000)

  test("Async.blocking entered from a virtual thread cancels and joins its running futures"):
    val threads = ConcurrentLinkedQueue[Thread]()
    holdsWithin(10, "Async.blocking on a virtual thread cancels its root scope when it ends"):
      val vt = Thread.ofVirtual().start: () =>
        Async.blocking:
          val started = CountDownLatch(2)
          sleeper(threads, started)
          sleeper(threads, started)
          started.await()
      vt.join()
    assertEquals(threads.size, 2)
    assertEquals(threads.asScala.filter(_.isAlive).toList, Nil, "a future outlived its scope")

  test("cancelling a group cancels its current members at once"):
    val g = CompletionGroup()
    val members = Vector.fill(3)(Promise[Int]())
    members.foreach(_.future.link(g))
    g.cancel()
    members.foreach: p =>
      val r = p.future.poll()
      assert(
        r.exists(_.failed.toOption.exists(_.isInstanceOf[CancellationException])),
        s"a member of a cancelled group is not cancelled: $r"
      )
      p.future.unlink()

  test("Async.group cancels the futures still running when its body ends"):
    val threads = ConcurrentLinkedQueue[Thread]()
    holdsWithin(10, "Async.group cancels its group when its body ends"):
      Async.blocking:
        Async.group:
          val started = CountDownLatch(1)
          sleeper(threads, started)
          started.await()
        assertEquals(threads.asScala.filter(_.isAlive).toList, Nil, "outlived Async.group")

  test("cancel() cancels the future's children at once, while the future is still running"):
    holdsWithin(10, "Future.cancel() cancels its children"):
      Async.blocking:
        val childRef = Promise[Future[Unit]]()
        val release = CountDownLatch(1)
        val parent = Future:
          val never = CountDownLatch(1)
          childRef.success(sleeper(ConcurrentLinkedQueue(), never))
          // The parent cannot be interrupted here: only cancel() itself can reach the child.
          uninterruptible(release.await())
        val child = childRef.future.value
        parent.cancel()
        val seen = child.poll()
        release.countDown()
        assert(
          seen.exists(_.isFailure),
          s"the child of a cancelled future is not cancelled by cancel() itself: $seen"
        )
        assert(seen.get.failed.get.isInstanceOf[CancellationException], s"got $seen")

  test("a scope's join waits for members that left the group but are still running"):
    // The fibers of members that left are kept and pruned of terminated ones once there are
    // 64 of them: 65 futures leave one at a time, all kept alive after leaving; the join must
    // wait for every one of them, not only for those kept after the prune.
    val support = HoldingSupport()
    val g = CompletionGroup()
    given Async = AsyncContext(g, null, support)
    holdsWithin(20, "CompletionGroup.waitCompletion joins every fiber that left the group"):
      for i <- 0 until 65 do
        Future(i)
        support.awaitLeft(i)
      assertEquals(g.size, 0)
      support.release(64)
      support.threads(64).join()
      @volatile var aliveAtReturn = -1
      val waiter = Thread.ofPlatform().start: () =>
        g.waitCompletion()
        aliveAtReturn = support.threads.count(_.isAlive)
      waiter.join(500) // a join that forgot some fibers returns now, with those still alive
      (0 until 64).foreach(support.release)
      waiter.join()
      assertEquals(aliveAtReturn, 0, "the scope's join returned while threads that left ran on")

  /**
   * Starts fibers on virtual threads, each held after its body (the future has completed and
   * left its group) until released, as a fiber may still be finishing its last instructions.
   */
  final class HoldingSupport extends AsyncSupport:
    def clock: weft.runtime.Clock = AsyncSupport.default.clock
    val threads = ArrayBuffer[Thread]()
    private val left = ArrayBuffer[CountDownLatch]()
    private val held = ArrayBuffer[CountDownLatch]()

    def start(body: Runnable): Fiber =
      val out = CountDownLatch(1)
      val hold = CountDownLatch(1)
      left += out
      held += hold
      val t = Thread.ofVirtual().unstarted: () =>
        body.run()
        out.countDown()
        while hold.getCount > 0 do
          try hold.await()
          catch case _: InterruptedException => ()
      threads += t
      t.start()
      t.asInstanceOf[Fiber] // a fiber is its thread on the JVM

    def scheduler: Scheduler = AsyncSupport.default.scheduler
    def awaitLeft(i: Int): Unit = left(i).await()
    def release(i: Int): Unit = held(i).countDown()
