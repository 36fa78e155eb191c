package weft

import java.util.concurrent.{CancellationException, CountDownLatch}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicReference}
import scala.concurrent.duration.*
import scala.util.{Failure, Try}
import weft.*

/**
 * Work that must finish, finishes: inside `uninterruptible`, a `withTimeout` and the futures
 * started there run to their end although the enclosing future is cancelled meanwhile; the
 * cancellation takes effect when the region ends. On a platform-thread caller here, on a
 * virtual one in [[UninterruptibleRegionVirtualSuite]].
 */
class UninterruptibleRegionSuite extends munit.FunSuite, weft.testing.Deadlined:

  /**
   * Starts `body` as a future, cancels it once `body` has signalled `inRegion`, and returns what
   * `body` recorded once the scope has joined the future's fiber.
   */
  private def cancelledDuring[T](body: (CountDownLatch, AtomicReference[Try[T]]) => Async ?=> Unit)
      : Try[T] =
    val inRegion = CountDownLatch(1)
    val got = AtomicReference[Try[T]](Failure(AssertionError("the region never ended")))
    Async.blocking:
      val f = Future(body(inRegion, got))
      inRegion.await()
      f.cancel()
      (f.result: Unit) // the cancel completes it at once; the scope's end joins its fiber
    got.get

  test("a withTimeout inside uninterruptible runs to its end when the future is cancelled"):
    val got = cancelledDuring[String]: (inRegion, got) =>
      uninterruptible:
        got.set(Try(withTimeout(1.second) {
          inRegion.countDown()
          sleep(100)
          "x"
        }))
    assertEquals(got, scala.util.Success("x"))

  test("a future started inside uninterruptible completes and can be awaited there"):
    val got = cancelledDuring[Int]: (inRegion, got) =>
      uninterruptible:
        val f = Future:
          sleep(100)
          42
        inRegion.countDown()
        got.set(Try(f.await))
    assertEquals(got, scala.util.Success(42))

  test("the cancellation takes effect at the region's end: a wait after it throws"):
    val got = cancelledDuring[String]: (inRegion, got) =>
      try
        uninterruptible:
          inRegion.countDown()
          sleep(100)
        got.set(scala.util.Success("region ended without raising"))
      catch case e: CancellationException => got.set(scala.util.Success("raised"))
    assertEquals(got, scala.util.Success("raised"))

  test("futures still running when the region ends move to the enclosing scope"):
    // Not cancelled: the future outlives the region and the enclosing scope joins it.
    val ran = AtomicBoolean()
    Async.blocking:
      val f = uninterruptible(Future { sleep(50); ran.set(true); 1 })
      assertEquals(f.await, 1)
    assert(ran.get)
    // Cancelled meanwhile: the future is cancelled when the region hands it over.
    val moved = AtomicReference[Future[Int] | Null](null)
    val ended = AtomicReference[Throwable | Null](null)
    cancelledDuring[Unit]: (inRegion, _) =>
      uninterruptible:
        moved.set(Future {
          try sleep(60_000)
          catch case e: Throwable => ended.set(e)
          0
        })
        inRegion.countDown()
        sleep(50)
    assert(ended.get.isInstanceOf[CancellationException], s"ended with ${ended.get}")

  test("a withTimeout inside uninterruptible still ends on its own timer"):
    val got = cancelledDuring[Option[Int]]: (inRegion, got) =>
      uninterruptible:
        inRegion.countDown()
        got.set(Try(withTimeoutOption(50.millis) { sleep(60_000); 1 }))
    assertEquals(got, scala.util.Success(None))

  test("a failure inside a region of a supervised scope fails the scope"):
    val regionEnded = AtomicBoolean()
    val e = intercept[IllegalStateException]:
      Async.blocking:
        supervised:
          uninterruptible:
            val f = Future[Int](throw IllegalStateException("in the region"))
            f.result: Unit
            sleep(20) // the scope is being cancelled: deferred until the region ends
            regionEnded.set(true)
          sleep(60_000)
    assertEquals(e.getMessage, "in the region")
    assert(regionEnded.get, "the region was cut short")

  test("at the root, a future started inside uninterruptible completes despite an interrupt"):
    Async.blocking:
      val caller = Thread.currentThread()
      // munit's `intercept` lets an InterruptedException through: caught by hand.
      val e =
        try
          uninterruptible:
            val f = Future(sleep(50))
            caller.interrupt()
            f.await
            assertEquals(withTimeout(1.second) { sleep(20); "y" }, "y")
          fail("the deferred interrupt was not raised at the region's end")
        catch case e: InterruptedException => e
      assert(e.getMessage.contains("uninterruptible"), e.getMessage)

/** [[UninterruptibleRegionSuite]] with a virtual-thread caller. */
class UninterruptibleRegionVirtualSuite extends UninterruptibleRegionSuite, OnVirtualThread
