package weft.keyed

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.{AtomicBoolean, AtomicInteger}
import scala.util.{Failure, Success}
import weft.{Async, Future, Promise, Resource, await, uninterruptible}
import weft.testing.TimeTesting.awaitCondition
import weft.testing.TimeTesting

/** Failures stay with their own task; cancellation of pending and running tasks. */
class SequentiallyCancelSuite extends munit.FunSuite, weft.testing.Deadlined:

  private def isCancelled(r: Option[scala.util.Try[?]]): Boolean = r match
    case Some(Failure(_: CancellationException)) => true
    case _                                       => false

  test("a failing task fails only its own future; the key's later tasks run"):
    val boom = IllegalStateException("boom")
    Async.blocking:
      val seq = Sequentially[Int]()
      val before = seq.submit(1)(1)
      val failing = seq.submit[Int](1)(throw boom)
      val after = seq.submit(1)(3)
      assertEquals(before.await, 1)
      assertEquals(failing.result, Failure(boom))
      assertEquals(after.await, 3)
      intercept[IllegalStateException](seq.run[Int](1)(throw boom))
      assertEquals(seq.run(1)(4), 4)

  test("cancelling a pending task removes it without running it; the queue continues"):
    Async.blocking:
      val seq = Sequentially[String]()
      val gate = Promise[Unit]()
      val ran = AtomicBoolean()
      val first = seq.submit("k")(gate.future.await)
      val victim = seq.submit("k")(ran.set(true))
      val last = seq.submit("k")("last")
      victim.cancel()
      assert(isCancelled(victim.poll()), "cancel completes the future at once")
      gate.success(())
      first.await
      assertEquals(last.await, "last")
      assert(!ran.get, "a cancelled pending task never runs")

  test("cancelling a running task interrupts it; the next task runs un-interrupted"):
    Async.blocking:
      val seq = Sequentially[String]()
      val started = Promise[Unit]()
      val sawInterrupt = Promise[Boolean]()
      val running = seq.submit("k"):
        started.success(())
        try
          Thread.sleep(Long.MaxValue)
          sawInterrupt.success(false)
        catch case _: InterruptedException => sawInterrupt.success(true)
      val next = seq.submit("k"):
        Thread.sleep(5) // would throw if the interrupt leaked into this task
        Thread.currentThread().isInterrupted
      started.future.await
      running.cancel()
      assert(isCancelled(running.poll()))
      assert(sawInterrupt.future.await, "the running body was interrupted")
      assertEquals(next.await, false)

  test("cancelling a running task cancels the futures its body started"):
    Async.blocking:
      val seq = Sequentially[Int]()
      val childStarted = Promise[Future[Unit]]()
      val task = seq.submit(1):
        val child = Future(Thread.sleep(Long.MaxValue))
        childStarted.success(child)
        child.await
      val child = childStarted.future.await
      task.cancel()
      assert(Async.await(child).failed.get.isInstanceOf[CancellationException])
      assertEquals(seq.run(1)(7), 7)

  test("stress: cancellations racing with completion never leak an interrupt"):
    val leaked = AtomicInteger()
    val cancelled = AtomicInteger()
    Async.blocking:
      val seq = Sequentially[Int]()
      for i <- 0 until 3000 do
        val k = i % 4
        val f = seq.submit(k):
          var x = 0
          while x < (i % 7) * 200 do x += 1
          x
        val check = seq.submit(k)(Thread.currentThread().isInterrupted)
        if i % 2 == 0 then f.cancel() else Future(f.cancel())
        if check.await then leaked.incrementAndGet()
        if isCancelled(f.poll()) then cancelled.incrementAndGet()
        assert(f.poll().isDefined)
    assertEquals(leaked.get, 0)
    assert(cancelled.get > 0)

  // The caller's cancel() must cancel its queued task before returning: the gate opens right
  // after it, before the caller's fiber has even woken up.
  test("cancelling a caller of run cancels its queued task, which never runs"):
    Async.blocking:
      val seq = Sequentially[Int]()
      val gate = Promise[Unit]()
      val ran = AtomicBoolean()
      val first = seq.submit(1)(gate.future.await)
      val caller = Future(seq.run(1)(ran.set(true)))
      while seq.activeKeys == 0 || caller.poll().isDefined do Thread.sleep(1)
      Thread.sleep(10) // let the caller queue its task
      caller.cancel()
      gate.success(())
      first.await
      assertEquals(seq.submit(1)("after").await, "after")
      assert(!ran.get)
      assert(isCancelled(caller.poll()))

  // The release waits for a gate that opens only after the cancel, then sleeps: an interrupt
  // cuts it short either in the await (a cancelled await) or, if the gate won the race with the
  // interrupt (the await then re-raises the interrupt status), in the sleep.
  test("a running task's Resource release is uninterruptible: cancelling it waits for release"):
    Async.blocking:
      val seq = Sequentially[Int]()
      val releasing = Promise[Unit]()
      val gate = Promise[Unit]()
      val released = AtomicInteger()
      val ended = AtomicBoolean()
      val res = Resource[Int](
        1,
        _ =>
          releasing.success(())
          gate.future.await
          Thread.sleep(1)
          released.incrementAndGet()
      )
      val task = seq.submit(1):
        try res.use(_ => ())
        finally ended.set(true)
      releasing.future.await
      task.cancel()
      assert(isCancelled(task.poll()), "cancel completes the task's future at once")
      gate.success(())
      awaitCondition("the cancelled task's body ended", 10_000)(ended.get)
      assertEquals(released.get, 1, "the release was cut short by the cancellation")
      assertEquals(seq.run(1)(2), 2)

  test("uninterruptible inside a task defers its cancellation to the block's end"):
    Async.blocking:
      val seq = Sequentially[Int]()
      val inside = Promise[Unit]()
      val gate = Promise[Unit]()
      val finished = AtomicBoolean()
      val after = Promise[String]()
      val task = seq.submit(1):
        try
          uninterruptible:
            inside.success(())
            gate.future.await
            Thread.sleep(1) // an interrupt delivered inside the block would throw here
            finished.set(true)
          after.success("not raised")
        catch case e: (CancellationException | InterruptedException) => after.success(s"$e")
      inside.future.await
      task.cancel()
      gate.success(())
      assert(after.future.await.contains("CancellationException"), after.future.await)
      assert(finished.get, "the uninterruptible block was cut short")

  // A task that sets its own interrupt flag and returns must not fail the next task of its key,
  // which its worker runs next (queued behind the gate, so on the same fiber).
  test("a task's leftover interrupt flag does not reach the key's next task"):
    Async.blocking:
      val seq = Sequentially[Int]()
      val gate = Promise[Unit]()
      val first = seq.submit(1):
        gate.future.await
        Thread.currentThread().interrupt()
        1
      val second = seq.submit(1):
        val flagged = Thread.currentThread().isInterrupted
        Thread.sleep(1)
        if flagged then -1 else 2
      gate.success(())
      assertEquals(first.await, 1)
      assertEquals(second.result, Success(2))

  test("the result of a completed task is not changed by a late cancel"):
    Async.blocking:
      val seq = Sequentially[Int]()
      val f = seq.submit(1)(5)
      assertEquals(f.await, 5)
      f.cancel()
      assertEquals(f.poll(), Some(Success(5)))
