package weft.guide

import java.util.concurrent.{CancellationException, CompletableFuture}
import scala.util.Success
import weft.*

/** The examples of docs/guide/futures.md, run. */
class FuturesGuideSuite extends munit.FunSuite:

  test("futures: cancel"):
    // example: futures-cancel
    val result = Async.blocking:
      val f = Future:
        sleep(60_000)
        "never"
      f.cancel()
      f.result // Failure(CancellationException), at once; f's thread is interrupted
    // end
    assert(result.failed.toOption.exists(_.isInstanceOf[CancellationException]), result)

  test("futures: uninterruptible defers a cancellation"):
    // example: futures-uninterruptible
    val saved = Async.blocking:
      val entered = Promise[Unit]()
      val saved = Promise[String]()
      val f = Future:
        uninterruptible:
          entered.success(())
          sleep(100) // the cancel below does not cut this short
          saved.success("saved")
        sleep(60_000) // the deferred cancellation is raised when the block ends
      entered.future.await
      f.cancel()
      saved.future.await // "saved"
    // end
    assertEquals(saved, "saved")

  test("futures: combinators"):
    // example: futures-combinators
    val (pair, first, all) = Async.blocking:
      val a = Future { sleep(50); 1 }
      val b = Future { sleep(10); "b" }
      val pair = a.zip(b).await // (1, b)
      val first = Future.alt(Future { sleep(50); "slow" }, Future("fast")).await // fast
      val all = Seq(Future(1), Future(2), Future(3)).awaitAll // Seq(1, 2, 3)
      (pair, first, all)
    // end
    assertEquals(pair, (1, "b"))
    assertEquals(first, "fast")
    assertEquals(all, Seq(1, 2, 3))

  test("futures: a callback API through withResolver"):
    // example: futures-resolver
    val answer = Async.blocking:
      val f = Future.withResolver[Int]: r =>
        CompletableFuture
          .supplyAsync(() => 21 * 2) // any callback-based API
          .whenComplete((v, e) => if e == null then r.resolve(v) else r.reject(e))
      f.await // 42
    // end
    assertEquals(answer, 42)

  test("futures: a promise"):
    // example: futures-promise
    val got = Async.blocking:
      val p = Promise[String]()
      val reader = Future(p.future.await.toUpperCase)
      p.success("hello") // from any thread; a second completion throws
      reader.result // Success(HELLO)
    // end
    assertEquals(got, Success("HELLO"))
