package weft.keyed

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.DurationInt
import scala.util.Failure
import weft.{Async, Future, Promise, await}

/** Closing, cancelling pending work, the owning scope, and bad input. */
class SequentiallyLifecycleSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("close rejects new tasks with a clear error; queued tasks still finish"):
    Async.blocking:
      val seq = Sequentially[Int]()
      val gate = Promise[Unit]()
      val first = seq.submit(1) { gate.future.await; 1 }
      val queued = (2 to 5).map(i => seq.submit(1)(i))
      seq.close()
      assert(seq.isClosed)
      val e = intercept[SequentiallyClosedException](seq.submit(1)(0))
      assert(e.getMessage.contains("closed"), e.getMessage)
      intercept[SequentiallyClosedException](seq.run(2)(0))
      gate.success(())
      assertEquals(first.await +: queued.map(_.await), 1 to 5)

  test("cancelPending drops the queued tasks; the running one finishes"):
    Async.blocking:
      val seq = Sequentially[Int]()
      val gate = Promise[Unit]()
      val ran = AtomicInteger()
      val started = Promise[Unit]()
      val running = seq.submit(1) { started.success(()); gate.future.await; "done" }
      val queued = (0 until 10).map(_ => seq.submit(1)(ran.incrementAndGet()))
      started.future.await // a task not yet started is pending, and cancelPending would drop it
      seq.cancelPending()
      gate.success(())
      assertEquals(running.await, "done")
      queued.foreach: f =>
        assert(Async.await(f).failed.get.isInstanceOf[CancellationException])
      assertEquals(ran.get, 0)
      assertEquals(seq.submit(1)("still open").await, "still open")

  // The scope cancels its members (the executor, its workers) in any order; the outcome is the
  // same: running tasks end with their own CancellationException (never a worker's interrupt),
  // pending ones are cancelled without running.
  test("the end of the scope cancels pending and running tasks and joins every worker"):
    var seqRef: Sequentially[Int] = null
    val futures = Async.blocking:
      val seq = Sequentially[Int]()
      seqRef = seq
      val gate = Promise[Unit]()
      val started = Promise[Unit]()
      val fs = (0 until 50).flatMap: k =>
        Seq(
          seq.submit(k) { started.tryComplete(scala.util.Success(())); gate.future.await },
          seq.submit(k)(())
        )
      started.future.await
      assert(seq.workerCount > 0)
      fs
    assertEquals(seqRef.workerCount, 0)
    assert(seqRef.isClosed)
    futures.foreach: f =>
      val r = f.poll()
      assert(r.exists(_.failed.toOption.exists(_.isInstanceOf[CancellationException])), r)

  test("workers never outlive a nested scope"):
    Async.blocking:
      var seqRef: Sequentially[Int] = null
      Async.group:
        val seq = Sequentially[Int]()
        seqRef = seq
        (0 until 100).map(k => seq.submit(k)(Thread.sleep(1))).foreach(_.await)
      assertEquals(seqRef.workerCount, 0)
      // its scope has ended: a task offered now ends as cancelled, as its queued tasks did
      intercept[java.util.concurrent.CancellationException](seqRef.submit(1)(()))

  test("idle workers exit after their keep-alive"):
    Async.blocking:
      val seq = Sequentially[Int](idleWorkerKeepAlive = 10.millis)
      (0 until 20).map(k => seq.submit(k)(Thread.sleep(2))).foreach(_.await)
      while seq.workerCount > 0 do Thread.sleep(5)
      assertEquals(seq.submit(1)("a new worker").await, "a new worker")

  test("bad input gets a typed error at the call"):
    Async.blocking:
      val e = intercept[IllegalArgumentException](Sequentially[Int](maxPendingPerKey = 0))
      assert(e.getMessage.contains("maxPendingPerKey"))
      intercept[IllegalArgumentException](Sequentially[Int](idleWorkerKeepAlive = -1.second))
      val seq = Sequentially[String]()
      intercept[IllegalArgumentException](seq.submit(null: String)(()))
      intercept[IllegalArgumentException](seq.run(null: String)(()))
