package weft

import java.util.concurrent.CancellationException
import scala.util.{Failure, Success}
import weft.internal.futures.CoreFuture

/** `zip`, `*:`, `alt`, `altCancelling` (and `altC`), `Future.alt`, `awaitAll`, `awaitFirst` (seed 002 semantics). */
class CombinatorsSuite extends munit.FunSuite, weft.testing.Deadlined:

  val boom = IllegalStateException("boom")

  test("zip pairs both values"):
    Async.blocking:
      assertEquals(Future(1).zip(Future("a")).value, (1, "a"))

  test("zip fails with the first failure without waiting for the other"):
    Async.blocking:
      val never = Promise[Int]()
      assertEquals(Future[Int](throw boom).zip(never.future).result, Failure(boom))

  test("tuple-style zip: f1 *: f2 *: f3.zip(f4)"):
    Async.blocking:
      val (f1, f2, f3, f4) = (Future(1), Future("b"), Future(3.0), Future('d'))
      val all: Future[(Int, String, Double, Char)] = f1 *: f2 *: f3.zip(f4)
      assertEquals(all.value, (1, "b", 3.0, 'd'))

  test("alt returns the first success, ignoring an earlier failure"):
    Async.blocking:
      val failsFast = Future[Int](throw boom)
      val succeeds = Future { Thread.sleep(20); 2 }
      assertEquals(failsFast.alt(succeeds).value, 2)

  test("alt with all failing gives the last failure"):
    Async.blocking:
      val first = Future[Int](throw IllegalArgumentException("first"))
      val last = Future[Int] { Thread.sleep(30); throw boom }
      assertEquals(first.alt(last).result, Failure(boom))

  test("Future.alt over three"):
    Async.blocking:
      val f = Future.alt(Future[Int](throw boom), Future { Thread.sleep(50); 1 }, Future(2))
      assertEquals(f.value, 2)

  test("altCancelling cancels the losers once one succeeds"):
    Async.blocking:
      val slow = Future { Thread.sleep(60_000); 1 }
      val fast = Future(2)
      assertEquals(fast.altCancelling(slow).value, 2)
      assert(slow.result match
        case Failure(_: CancellationException) => true; case _ => false
      )

  test("altC and Future.altC, the specification's names, cancel the losers too"):
    Async.blocking:
      val slow = Future { Thread.sleep(60_000); 1 }
      assertEquals(Future(2).altC(slow).value, 2)
      assert(slow.result.failed.toOption.exists(_.isInstanceOf[CancellationException]))
      val slow2 = Future { Thread.sleep(60_000); 1 }
      assertEquals(Future.altC(slow2, Future(3)).value, 3)
      assert(slow2.result.failed.toOption.exists(_.isInstanceOf[CancellationException]))

  test("altCancelling with all failing acts like alt"):
    Async.blocking:
      val f = Future[Int](throw IllegalArgumentException("a")).altCancelling(Future[Int] {
        Thread.sleep(20); throw boom
      })
      assertEquals(f.result, Failure(boom))

  test("awaitAll returns values in order"):
    Async.blocking:
      val fs = (1 to 20).map(i => Future { Thread.sleep((20 - i).toLong); i })
      assertEquals(fs.awaitAll, (1 to 20))

  test("awaitAll throws the first failure"):
    Async.blocking:
      val fs = Seq(Future { Thread.sleep(60_000); 1 }, Future[Int](throw boom))
      assertEquals(intercept[IllegalStateException](fs.awaitAll), boom)

  test("awaitAll of nothing is empty"):
    Async.blocking(assertEquals(Seq.empty[Future[Int]].awaitAll, Seq.empty))

  test("awaitFirst returns the first success; with all failing, throws the last failure"):
    Async.blocking:
      assertEquals(Seq(Future[Int](throw boom), Future { Thread.sleep(10); 5 }).awaitFirst, 5)
      val e = intercept[IllegalStateException]:
        Seq(
          Future[Int](throw IllegalArgumentException("x")),
          Future[Int] { Thread.sleep(20); throw boom }
        ).awaitFirst
      assertEquals(e, boom)

  test("awaitFirstWithCancel cancels the others"):
    Async.blocking:
      val slow = Future { Thread.sleep(60_000); 1 }
      assertEquals(Seq(slow, Future(3)).awaitFirstWithCancel, 3)
      assert(slow.result.isFailure)

  test("alt of no futures is a clear error"):
    intercept[IllegalArgumentException](Future.alt[Int]())

  test("combinators that give up leave no listener on a long-lived future"):
    val shutdown = Promise[Unit]()
    def listeners = shutdown.future.asInstanceOf[CoreFuture[Unit]].listenerCount
    Async.blocking:
      for _ <- 1 to 300 do
        val p = Promise[Unit]()
        assertEquals(withTimeoutOption(0)(Seq(shutdown.future, p.future).awaitFirst), None)
        assertEquals(withTimeoutOption(0)(Seq(shutdown.future, p.future).awaitAll), None)
        p.failure(IllegalStateException("other input failed"))
        intercept[IllegalStateException](Seq(shutdown.future, p.future).awaitAll)
        val z = shutdown.future.zip(p.future)
        assert(z.result.isFailure)
        val alt = Future.alt(shutdown.future, Promise[Unit]().future)
        alt.cancel()
        val mapped = shutdown.future.mapValue(_ => 1)
        mapped.cancel()
      assertEquals(listeners, 0, "abandoned combinators left their listeners on the future")
    shutdown.success(())
