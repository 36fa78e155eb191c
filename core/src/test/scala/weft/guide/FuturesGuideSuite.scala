package weft.guide

import java.util.concurrent.{CancellationException, CompletableFuture}
import scala.util.Success
import scala.util.Try
import scala.concurrent.duration.*
import weft.*

/** The examples of docs/guide/futures.md, run. */
class FuturesGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

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

  test("futures: uninterruptible covers the futures it starts and a withTimeout in it"):
    // example: futures-uninterruptible-drain
    val (result, flushed) = Async.blocking:
      val flushed = java.util.concurrent.atomic.AtomicInteger()
      val entered = Promise[Unit]()
      val f = Future:
        uninterruptible:
          val flushes = (1 to 3).map(_ => Future { sleep(50); flushed.incrementAndGet() })
          entered.success(())
          withTimeout(2.seconds)(flushes.foreach(_.await)) // all three, or gives up after 2 s
      entered.future.await
      f.cancel() // deferred: the flushes finish, then the block raises the cancellation
      (f.result, flushed) // Failure(CancellationException) at once; 3 flushed by the scope's end
    // end
    assertEquals(flushed.get, 3) // the scope's end joined the future's thread
    assert(result.failed.toOption.exists(_.isInstanceOf[CancellationException]), result)

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

  test("futures: parallel collections"):
    // example: futures-par
    val (both, doubled, failed) = Async.blocking:
      def fetch(id: Int)(using Async): String =
        sleep(10)
        s"item $id"
      val both = par(fetch(1), fetch(2)) // Seq(item 1, item 2)
      val doubled = (1 to 100).toList.mapPar(8)(i => i * 2) // List(2, 4, ..., 200), in order
      val failed = Try:
        List(1, 2, 3).foreachPar(2): i =>
          if i == 2 then throw IllegalStateException(s"bad $i") else sleep(60_000)
      (both, doubled, failed) // failed: Failure(bad 2), after the other tasks were cancelled
    // end
    assertEquals(both, Seq("item 1", "item 2"))
    assertEquals(doubled, (1 to 100).map(_ * 2).toList)
    assertEquals(failed.failed.toOption.map(_.getMessage), Some("bad 2"))

  test("futures: collector"):
    // example: futures-collector
    val order = Async.blocking:
      val c = Future.MutableCollector(Future { sleep(200); "slow" }, Future { sleep(50); "fast" })
      c += Future.successful("ready")
      c.results.values.take(3).map(_.await).toList // List(ready, fast, slow)
    // end
    assertEquals(order, List("ready", "fast", "slow"))
