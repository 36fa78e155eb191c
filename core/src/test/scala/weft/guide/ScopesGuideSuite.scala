package weft.guide

import scala.util.Failure
import weft.*

/** The examples of docs/guide/scopes.md, run. */
class ScopesGuideSuite extends munit.FunSuite:

  test("scopes: two futures in a scope"):
    // example: scopes-basic
    val total = Async.blocking: // a scope; its body gets an Async
      val a = Future { sleep(100); 10 }
      val b = Future { sleep(200); 40 }
      a.await + b.await // 50, after about 200 ms: a and b ran at the same time
    // end
    assertEquals(total, 50)

  test("scopes: functions that suspend take (using Async)"):
    // example: scopes-using
    def fetchUser(id: Int)(using Async): String =
      sleep(10) // stands for a network call
      s"user-$id"

    val users = Async.blocking:
      (1 to 3).map(id => Future(fetchUser(id))).awaitAll // Seq(user-1, user-2, user-3)
    // end
    assertEquals(users, Seq("user-1", "user-2", "user-3"))

  test("scopes: a group's end cancels what it started"):
    // example: scopes-group
    val ticker = Async.blocking:
      Async.group:
        val ticker = Future:
          while true do sleep(10)
        ticker // the group ends here: ticker is cancelled and its thread has ended
    val state = ticker.poll() // Some(Failure(CancellationException))
    // end
    assert(state.exists(_.failed.toOption.exists(_.isInstanceOf[
      java.util.concurrent.CancellationException
    ])))

  test("scopes: a failure is the future's value, thrown where it is awaited"):
    // example: scopes-failure
    val outcome = Async.blocking:
      val f = Future[Int](throw IllegalStateException("boom"))
      f.result // Failure(IllegalStateException: boom); f.await would throw it
    // end
    outcome match
      case Failure(e: IllegalStateException) => assertEquals(e.getMessage, "boom")
      case other                             => fail(s"unexpected $other")
