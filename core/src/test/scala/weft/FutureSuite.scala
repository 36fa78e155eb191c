package weft

import java.util.concurrent.CancellationException
import scala.util.{Failure, Success, Try}

/** Futures as seed 002 describes them: runnable and completable, `result`, `value`, `await`. */
class FutureSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("seed example: two runnable futures summed"):
    val sum = Async.blocking:
      val f1 = Future { Thread.sleep(100); 10 }
      val f2 = Future { Thread.sleep(200); 40 }
      f1.value + f2.value
    assertEquals(sum, 50)

  test("seed example: Async.await returns the Try"):
    val r = Async.blocking:
      val f = Future { 10 }
      Async.await(f)
    assertEquals(r, Success(10))

  test("result, value and await agree"):
    Async.blocking:
      val f = Future { "x" }
      assertEquals(f.result, Success("x"))
      assertEquals(f.value, "x")
      assertEquals(f.await, "x")

  test("an exception in the body completes the future with Failure"):
    val boom = IllegalStateException("boom")
    Async.blocking:
      val f = Future[Int] { throw boom }
      assertEquals(f.result, Failure(boom))
      intercept[IllegalStateException](f.value)

  test("the body of Async.blocking runs on the calling thread; a future's on a virtual one"):
    val caller = Thread.currentThread()
    val (bodyThread, futureVirtual) =
      Async.blocking((Thread.currentThread(), Future(Thread.currentThread().isVirtual).await))
    assert(bodyThread eq caller, bodyThread)
    assert(futureVirtual, "a future's body runs on a virtual thread")

  test("Async.blocking rethrows the body's exception"):
    val e = intercept[IllegalArgumentException](Async.blocking(throw IllegalArgumentException("x")))
    assertEquals(e.getMessage, "x")

  test("Future.now is already completed"):
    val f = Future.now(Success(3))
    assertEquals(f.poll(), Some(Success(3)))
    Async.blocking(assertEquals(f.await, 3))

  test("seed example: Future.now through a Promise"):
    def now[T](result: Try[T]): Future[T] =
      val p = Promise[T]()
      p.complete(result)
      p.future
    Async.blocking(assertEquals(now(Success(5)).value, 5))

  test("a Promise completed from another thread wakes the awaiting future"):
    val p = Promise[Int]()
    Async.blocking:
      val waiter = Future(p.future.await * 2)
      Future { Thread.sleep(20); p.success(21) }
      assertEquals(waiter.await, 42)

  test("completing a Promise twice is an IllegalStateException"):
    val p = Promise[Int]()
    p.success(1)
    val e = intercept[IllegalStateException](p.success(2))
    assert(e.getMessage.contains("already completed"))
    assert(!p.tryComplete(Success(3)))

  test("completing a Promise whose future was cancelled is ignored"):
    val p = Promise[Int]()
    p.future.cancel()
    p.success(1)
    assert(p.future.poll().get.failed.get.isInstanceOf[CancellationException])

  test("withResolver bridges a callback API"):
    Async.blocking:
      val f = Future.withResolver[Int] { r =>
        Thread.ofPlatform().start(() => r.resolve(7))
      }
      assertEquals(f.await, 7)

  test("withResolver: cancelling runs the cancel handler once; later resolves are ignored"):
    var handled = 0
    var resolver: Future.Resolver[Int] = null
    val f = Future.withResolver[Int] { r =>
      resolver = r
      r.onCancel(() => handled += 1)
    }
    f.cancel()
    f.cancel()
    resolver.resolve(1)
    assertEquals(handled, 1)
    assert(f.poll().get.failed.get.isInstanceOf[CancellationException])

  test("withResolver: an exception thrown by the registering body fails the future"):
    val f = Future.withResolver[Int](_ => throw IllegalStateException("no"))
    assert(f.poll().get.failed.get.isInstanceOf[IllegalStateException])

  test("awaiting a completed future allocates nothing"):
    val f = Future.now(Success(1))
    Async.blocking:
      val bean = java.lang.management.ManagementFactory.getThreadMXBean
        .asInstanceOf[com.sun.management.ThreadMXBean]
      val id = Thread.currentThread().threadId()
      var i = 0
      while i < 100_000 do
        f.await; i += 1 // warm up
      val before = bean.getThreadAllocatedBytes(id)
      i = 0
      var sum = 0
      while i < 100_000 do
        sum += f.await; i += 1
      val after = bean.getThreadAllocatedBytes(id)
      assertEquals(sum, 100_000)
      assert(after - before < 1024, s"allocated ${after - before} bytes for 100k awaits")
