package weft.guide

import java.util.concurrent.CancellationException
import weft.*

/** The examples of docs/guide/interop.md, run. */
class InteropGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("interop: Scala and Java futures, both ways"):
    // example: interop-both-ways
    import java.util.concurrent.CompletableFuture
    import scala.concurrent.{ExecutionContext, Future as ScalaFuture}
    import weft.interop.*

    val (sum, backInScala) = Async.blocking:
      val legacy = ScalaFuture(20)(using ExecutionContext.global)
      val fromScala = legacy.asWeft.await // 20
      val fromJava = CompletableFuture.supplyAsync(() => 22).asWeft.await // 22
      val sum = Future(fromScala + fromJava)
      (sum.await, sum.asScala) // 42, and a scala.concurrent.Future completed with 42
    // end
    assertEquals(sum, 42)
    assertEquals(backInScala.value.flatMap(_.toOption), Some(42))

  test("interop: cancelling a CompletableFuture view cancels the weft future"):
    // example: interop-cancel
    import weft.interop.*

    val outcome = Async.blocking:
      val slow = Future { sleep(60_000); "never" }
      val view = slow.asCompletableFuture // hand it to a Java API
      view.cancel(true) // cancels slow too
      slow.result // Failure(CancellationException)
    // end
    assert(outcome.failed.toOption.exists(_.isInstanceOf[CancellationException]), outcome)
