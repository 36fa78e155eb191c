package weft

import java.util.concurrent.{CancellationException, CountDownLatch}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicReference}
import scala.util.{Success, Try}
import weft.testing.TimeTesting.awaitCondition

/**
 * Who joins a future that changed groups, and when a group leaves the scope it is linked to:
 * a future moved away (`link`, `unlink`) is no longer joined by the scope it left; linking a
 * future that has finished adds nothing to wait for; a group of the user's linked to a scope is
 * cancelled AND joined by the scope's end; a group's own `join` waits for its members and can be
 * cut short. Each test runs its scopes from the caller [[onCaller]] gives, under a deadline: a
 * scope that waits for the wrong thread hangs, and the deadline fails it with every stack.
 */
class GroupMembershipSuite extends munit.FunSuite, weft.testing.StressChecks:

  /** Runs `body` as the test's caller (a platform thread here), failing it if it hangs. */
  def onCaller(body: => Unit): Unit = withinDeadline(20, "weft-membership-")(body)

  /** A one-shot gate. */
  private def latch(): CountDownLatch = CountDownLatch(1)

  test("a future moved away is not joined by the scope it left (unlink)"):
    onCaller:
      val release = latch()
      val started = latch()
      val f = AtomicReference[Future[Int]]()
      Async.blocking:
        f.set(Future { started.countDown(); release.await(); 1 })
        started.await()
        f.get.unlink()
      // The scope has returned with the unlinked future still running: nobody owns it.
      assert(!f.get.poll().isDefined, "the unlinked future ended before its scope returned")
      release.countDown()
      Async.blocking(assertEquals(f.get.result, Success(1)))

  test("a future moved away is not joined by the scope it left (link to another group)"):
    onCaller:
      val release = latch()
      val started = latch()
      val other = CompletionGroup()
      val f = AtomicReference[Future[Int]]()
      Async.blocking:
        f.set(Future { started.countDown(); release.await(); 1 })
        started.await()
        f.get.link(other)
      assert(!f.get.poll().isDefined, "the moved future ended before its old scope returned")
      assertEquals(other.size, 1)
      release.countDown()
      Async.blocking(other.join()) // the new group owns its join
      assertEquals(other.size, 0)
      assertEquals(f.get.poll(), Some(Success(1)))

  test("a future's children unlinked from it are not joined when its body ends (zombies)"):
    onCaller:
      val release = latch()
      val started = latch()
      val zombieRan = AtomicBoolean()
      val zombie = AtomicReference[Future[Unit]]()
      Async.blocking:
        val f = Future:
          zombie.set(Future { started.countDown(); release.await(); zombieRan.set(true) }.unlink())
          started.await() // its thread is running: a join that still counted it would wait
          10
        assertEquals(f.value, 10)
        assert(!zombieRan.get, "the parent future waited for its unlinked child")
      release.countDown()
      Async.blocking(zombie.get.value)
      assert(zombieRan.get)

  test("linking a finished future does not hold the scope"):
    onCaller:
      Async.blocking:
        val f = Future(1)
        assertEquals(f.value, 1)
        val scope = summon[Async].group
        awaitCondition("the finished future leaves its scope")(scope.size == 0)
        Async.group:
          f.link(summon[Async].group)
          assertEquals(summon[Async].group.size, 0, "a finished future was listed as live")
        val g = CompletionGroup()
        f.link(g)
        assertEquals(g.size, 0)

  test("linking a future while it finishes never leaves it live in the group"):
    onCaller:
      Async.blocking:
        for _ <- 1 to 300 do
          val f = Future(())
          Async.group(f.link(summon[Async].group))

  test("a user group linked to the scope is cancelled and joined by the scope's end"):
    onCaller:
      val started = latch()
      val finallyDone = AtomicBoolean()
      val thread = AtomicReference[Thread]()
      Async.blocking:
        val g = CompletionGroup().link(summon[Async].group)
        Future {
          thread.set(Thread.currentThread())
          started.countDown()
          try Thread.sleep(60_000)
          finally
            Thread.sleep(50) // a scope that does not wait for it returns meanwhile
            finallyDone.set(true)
        }(using summon[Async].withGroup(g))
        started.await()
      assert(finallyDone.get, "the scope returned before the user group's member ended")
      assert(!thread.get.isAlive, "the user group's member thread outlived the scope")

  test("a user group linked to a future's scope is joined when the future's body ends"):
    onCaller:
      val ended = AtomicBoolean()
      val started = latch()
      Async.blocking:
        val f = Future:
          val g = CompletionGroup().link(summon[Async].group)
          Future {
            started.countDown()
            try Thread.sleep(60_000)
            finally
              Thread.sleep(50)
              ended.set(true)
          }(using summon[Async].withGroup(g))
          started.await()
          1
        assertEquals(f.value, 1)
        assert(ended.get, "the future completed before its user group's member ended")

  test("a user group that was cancelled and drained before it was linked does not hold"):
    onCaller:
      val g = CompletionGroup()
      g.cancel()
      Async.blocking(g.link(summon[Async].group): Unit)
      assertEquals(g.size, 0)

  test("join waits for the group's members and their threads"):
    onCaller:
      val g = CompletionGroup()
      val release = latch()
      val thread = AtomicReference[Thread]()
      Async.blocking:
        val f = Future {
          thread.set(Thread.currentThread())
          release.await()
          2
        }(using summon[Async].withGroup(g))
        val joiner = Future(g.join())
        assert(!joiner.poll().isDefined)
        release.countDown()
        joiner.value
        assertEquals(f.poll(), Some(Success(2)))
        assert(!thread.get.isAlive, "join returned before the member's thread ended")

  test("join is cut short by the cancellation of the joining future"):
    onCaller:
      val g = CompletionGroup()
      val started = latch()
      Async.blocking:
        Future { started.countDown(); Thread.sleep(60_000) }(using summon[Async].withGroup(g))
        started.await()
        val joiner = Future(g.join())
        joiner.cancel()
        val r: Try[Unit] = joiner.result
        assert(r.failed.get.isInstanceOf[CancellationException], s"got $r")
        g.cancel()
        g.join()
        assertEquals(g.size, 0)

/** [[GroupMembershipSuite]], every scope entered from a virtual thread. */
class GroupMembershipOnVirtualThreadSuite extends GroupMembershipSuite:
  override def onCaller(body: => Unit): Unit =
    withinDeadline(20, "weft-membership-vt-"):
      val failure = AtomicReference[Throwable]()
      val vt = Thread.ofVirtual().start(() =>
        try body
        catch case e: Throwable => failure.set(e)
      )
      vt.join()
      if failure.get != null then throw failure.get
