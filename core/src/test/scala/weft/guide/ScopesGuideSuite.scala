package weft.guide

import scala.util.{Failure, Try}
import weft.*

/** The examples of docs/guide/scopes.md, run. */
class ScopesGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

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

  test("scopes: a failure in a supervised scope fails the scope at once"):
    // example: scopes-supervised
    def audit()(using Async): Unit = throw IllegalStateException("audit failed")

    val outcome = Async.blocking:
      Try:
        supervised:
          val page = Future { sleep(10_000); "page" } // cancelled when audit fails
          val auditing = Future(audit()) // nobody awaits it, yet it fails the scope
          page.await
    // outcome: Failure(IllegalStateException: audit failed), at once, not after 10 s
    // end
    outcome match
      case Failure(e: IllegalStateException) => assertEquals(e.getMessage, "audit failed")
      case other                             => fail(s"unexpected $other")

  test("scopes: an unsupervised future keeps its failure"):
    // example: scopes-unsupervised
    val reachable = Async.blocking:
      supervised:
        val probe = forkUnsupervised[Int](throw java.io.IOException("host down"))
        probe.result.isSuccess // false; the scope carries on
    // end
    assertEquals(reachable, false)

  test("scopes: a server's handlers report their failures and the server goes on"):
    try
      // example: scopes-reported
      val reports = java.util.concurrent.LinkedBlockingQueue[Throwable]()
      UnobservedFailures.setHandler(e => reports.add(e): Unit) // default: to stderr
      val first = Async.blocking:
        val scope = Scope.current
        val acceptLoop = Future:
          for conn <- 1 to 3 do // stands for accept()
            scope.forkReported:
              if conn == 2 then throw IllegalStateException(s"bad request on connection $conn")
              sleep(50) // serves the connection
        reports.take() // reported when connection 2 failed, while the server runs on
      // first: IllegalStateException: bad request on connection 2; the server was not stopped
      // end
      assertEquals(first.getMessage, "bad request on connection 2")
      assert(reports.isEmpty, reports)
    finally UnobservedFailures.resetHandler()

  test("scopes: handlers forked into the scope outlive the loop's future"):
    // example: scopes-fork
    val handled = java.util.concurrent.ConcurrentLinkedQueue[Int]()
    val allHandled = java.util.concurrent.CountDownLatch(3)
    Async.blocking:
      supervised:
        val scope = Scope.current
        val loop = Future:
          for conn <- 1 to 3 do // stands for accept()
            scope.fork { sleep(50); handled.add(conn); allHandled.countDown() }
        loop.await // the loop has ended; its handlers (members of the scope) run on
        allHandled.await()
    // handled: 1, 2, 3 in some order; a handler that threw would have failed the scope
    // end
    import scala.jdk.CollectionConverters.*
    assertEquals(handled.asScala.toList.sorted, List(1, 2, 3))
