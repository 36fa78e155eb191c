package weft

import java.util.concurrent.{CancellationException, CompletableFuture}
import scala.concurrent.{Await, ExecutionContext, Future as ScalaFuture, Promise as ScalaPromise}
import scala.concurrent.duration.*
import scala.util.{Failure, Success}
import weft.interop.*

/** Conversions to and from `scala.concurrent.Future` and `CompletableFuture`. */
class InteropSuite extends munit.FunSuite:

  given ExecutionContext = ExecutionContext.global

  test("a Scala future awaited in direct style"):
    Async.blocking:
      assertEquals(ScalaFuture(21 * 2).asWeft.value, 42)
      val boom = IllegalStateException("x")
      assertEquals(ScalaFuture.failed[Int](boom).asWeft.result, Failure(boom))

  test("a weft future as a Scala future"):
    Async.blocking:
      val sf = Future(5).asScala
      assertEquals(Await.result(sf, 5.seconds), 5)

  test("a future escaping its scope is cancelled, and so is its Scala view"):
    val sf = Async.blocking(Future { Thread.sleep(60_000); 5 }.asScala)
    assert(Await.ready(sf, 5.seconds).value.get.failed.get.isInstanceOf[CancellationException])

  test("a CompletableFuture awaited in direct style; exceptions are unwrapped"):
    Async.blocking:
      assertEquals(CompletableFuture.supplyAsync(() => "cf").asWeft.value, "cf")
      val boom = IllegalStateException("y")
      val failed = CompletableFuture.supplyAsync[String](() => throw boom)
      assertEquals(failed.asWeft.result, Failure(boom))

  test("cancelling the weft view cancels the CompletableFuture"):
    val cf = CompletableFuture[Int]()
    val view = cf.asWeft
    view.cancel()
    assert(cf.isCancelled)

  test("cancelling the CompletableFuture view cancels the weft future"):
    val p = Promise[Int]()
    val cf = p.future.asCompletableFuture
    cf.cancel(true)
    assert(p.future.poll().get.failed.get.isInstanceOf[CancellationException])

  test("a weft future as a CompletableFuture"):
    Async.blocking:
      assertEquals(Future("v").asCompletableFuture.get(), "v")

  test("a cancelled weft future gives a cancelled CompletableFuture"):
    val p = Promise[Int]()
    val cf = p.future.asCompletableFuture
    p.future.cancel()
    assert(cf.isCancelled)

  test("a Scala promise completed later wakes the awaiting future"):
    val sp = ScalaPromise[Int]()
    Async.blocking:
      val f = Future(sp.future.asWeft.value)
      sp.success(8)
      assertEquals(f.value, 8)
