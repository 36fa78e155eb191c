package weft

import java.util.concurrent.{CancellationException, CountDownLatch}
import java.util.concurrent.atomic.AtomicBoolean
import scala.util.Failure
import weft.internal.async.AsyncContext
import weft.internal.futures.RunnableFuture

/**
 * `cancel()` completes a future at once, interrupts its thread and cancels its children;
 * `uninterruptible` defers the cancellation to the end of the block, then raises it.
 */
class CancellationSuite extends munit.FunSuite, weft.testing.StressChecks, weft.testing.Deadlined:

  def isCancelled(r: scala.util.Try[?]): Boolean = r match
    case Failure(_: CancellationException) => true
    case _                                 => false

  test("cancel completes the future at once with Failure(CancellationException)"):
    Async.blocking:
      val started = CountDownLatch(1)
      val f = Future:
        uninterruptible:
          started.countDown()
          Thread.sleep(200) // cannot be interrupted: the completion must not wait for it
        1
      started.await()
      f.cancel()
      assert(isCancelled(f.poll().get), "the value is set by cancel() itself")

  test("cancel interrupts the future's thread"):
    val interrupted = AtomicBoolean(false)
    val done = CountDownLatch(1)
    Async.blocking:
      val started = CountDownLatch(1)
      val f = Future:
        started.countDown()
        try Thread.sleep(60_000)
        catch
          case e: InterruptedException =>
            interrupted.set(true)
        finally done.countDown()
      started.await()
      f.cancel()
      done.await()
    assert(interrupted.get)

  test("cancel cancels the children of the future"):
    Async.blocking:
      val childRef = Promise[Future[Int]]()
      val parent = Future:
        val child = Future { Thread.sleep(60_000); 1 }
        childRef.success(child)
        child.value
      val child = childRef.future.value
      parent.cancel()
      assert(isCancelled(child.result))
      assert(isCancelled(parent.result))

  test("a first child started after the parent's cancel (deferred) is cancelled at once"):
    // The children's group is made on the first child: it must see a cancellation that came
    // before it (RunnableFuture.makeChildren). The child is started with the future's own
    // context: one started with the block's is the region's, and runs (see
    // `UninterruptibleRegionSuite`).
    val seen = Async.blocking:
      val inBlock = CountDownLatch(1)
      val cancelled = CountDownLatch(1)
      val out = Promise[scala.util.Try[Int]]()
      val parent = Future:
        val own = summon[Async]
        uninterruptible:
          inBlock.countDown()
          cancelled.await()
          out.success(Future { Thread.sleep(60_000); 1 }(using own).result)
      inBlock.await()
      parent.cancel()
      cancelled.countDown()
      val seen = out.future.value
      assert(isCancelled(parent.result))
      seen
    assert(isCancelled(seen), seen)

  test("an await inside a cancelled future throws CancellationException"):
    val seen = Promise[Throwable]()
    Async.blocking:
      val never = Promise[Int]()
      val started = CountDownLatch(1)
      val f = Future:
        started.countDown()
        try never.future.value
        catch
          case e: Throwable =>
            seen.success(e)
            throw e
      started.await()
      f.cancel()
      assert(seen.future.value.isInstanceOf[CancellationException])

  test("uninterruptible defers the cancellation until the block ends, then raises it"):
    val log = java.util.concurrent.ConcurrentLinkedQueue[String]()
    Async.blocking:
      val inBlock = CountDownLatch(1)
      val f = Future:
        uninterruptible:
          inBlock.countDown()
          Thread.sleep(100) // not interrupted
          log.add("block finished")
        log.add("after block (must not run)")
      inBlock.await()
      f.cancel()
      val end = Future(Thread.sleep(300))
      end.value
      assert(isCancelled(f.result))
    assertEquals(log.toArray.toList, List("block finished"))

  test("awaits inside uninterruptible complete even when cancelled meanwhile"):
    val got = Promise[Int]()
    Async.blocking:
      val p = Promise[Int]()
      val inBlock = CountDownLatch(1)
      val f = Future:
        uninterruptible:
          inBlock.countDown()
          got.success(p.future.value)
      inBlock.await()
      f.cancel()
      p.success(7)
      assertEquals(got.future.value, 7)
      assert(isCancelled(f.result))

  test("a future started in a cancelled scope is cancelled and never runs its body"):
    val ran = AtomicBoolean(false)
    Async.blocking:
      Async.group:
        summon[Async].group.cancel()
        val f = Future(ran.set(true))
        assert(isCancelled(f.result))
    assert(!ran.get)

  test("awaiting in a cancelled scope is a CancellationException"):
    Async.blocking:
      Async.group:
        summon[Async].group.cancel()
        val p = Promise[Int]()
        intercept[CancellationException](p.future.value)

  test("cancelling a completed future changes nothing"):
    Async.blocking:
      val f = Future(5)
      assertEquals(f.value, 5)
      f.cancel()
      assertEquals(f.value, 5)

  test("cancelling a promise's future completes it; the producer's later complete is ignored"):
    val p = Promise[String]()
    p.future.cancel()
    p.success("late")
    assert(isCancelled(p.future.poll().get))

  test("CompletionGroup: members added after cancel are cancelled at once"):
    val g = CompletionGroup()
    g.cancel()
    val p = Promise[Int]()
    p.future.link(g)
    assert(isCancelled(p.future.poll().get))
    assert(g.isCancelled)

  /**
   * `uninterruptible(...)` written with the context that `around` gives the parent's body, and
   * evaluated on a child by a by-name helper: the child's cancellation is deferred until the
   * block ends, and the parent stays interruptible.
   */
  private def byNameDefersTheChild(name: String)(around: (Async ?=> Unit) => Async ?=> Unit) =
    def spawn(body: => Unit)(using Async): Future[Unit] = Future(body)
    withinDeadline(20, name):
      val inBlock = CountDownLatch(1)
      val blockDone = AtomicBoolean(false)
      Async.blocking:
        val parent = Future:
          around:
            val child = spawn(uninterruptible {
              inBlock.countDown()
              Thread.sleep(100)
              blockDone.set(true)
            })
            inBlock.await()
            child.cancel() // deferred: the block finishes
            sleep(60_000) // the parent (and a scope in it) must stay interruptible
        inBlock.await()
        parent.cancel()
        assert(isCancelled(parent.result))
      assert(blockDone.get, "the child's uninterruptible block was cut short")

  test(
    "uninterruptible through a by-name helper defers the child's cancellation, not the parent's"
  ):
    // The parent's own context (a runnable future's).
    byNameDefersTheChild("uninterruptible-by-name")(body => body)

  test(
    "uninterruptible through a by-name helper given a nested scope's context defers the child's " +
      "cancellation, not the scope's"
  ):
    // A scope's context (an `Async.group`'s): the by-name block must still find the child
    // running it, through the scope's members.
    byNameDefersTheChild("uninterruptible-by-name-group")(body => Async.group(body))

  test("a future cancelled before its fiber starts never runs its body, even uninterruptible"):
    // The documented rule: uninterruptible defers a cancellation that arrives while the body
    // runs; it cannot undo one that came before the body started.
    val held = java.util.concurrent.atomic.AtomicReference[Runnable | Null](null)
    val holding = new weft.runtime.AsyncSupport:
      def start(body: Runnable): weft.runtime.Fiber =
        held.set(body)
        weft.runtime.Fiber.current
      def scheduler: weft.runtime.Scheduler = weft.runtime.AsyncSupport.default.scheduler
      def clock: weft.runtime.Clock = weft.runtime.AsyncSupport.default.clock
    val ran = AtomicBoolean(false)
    val f = RunnableFuture.start(
      uninterruptible(ran.set(true)),
      AsyncContext(CompletionGroup(), null, holding)
    )
    f.cancel()
    val t = Thread.ofVirtual().start(held.get().nn)
    t.join()
    assert(!ran.get, "the body of a future cancelled before it started ran")
    assert(isCancelled(f.poll().get))
