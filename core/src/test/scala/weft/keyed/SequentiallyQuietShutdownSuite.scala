package weft.keyed

import java.util.concurrent.{CancellationException, CountDownLatch}
import java.util.concurrent.atomic.AtomicReference
import weft.{Async, Future, Promise, await}

/**
 * A shutdown is quiet: work that a scope being cancelled still offers to its `Sequentially` (a
 * handler's `finally`, a task racing the scope's end) ends as cancelled and nothing is reported
 * for it; a live caller of an executor closed on purpose still gets the
 * [[SequentiallyClosedException]]. Each check runs from a platform and from a virtual caller.
 */
class SequentiallyQuietShutdownSuite extends munit.FunSuite, weft.testing.FailureChecks:

  onBothCallers("a cancelled handler's cleanup offered to the cancelled executor ends cancelled"):
    val thrown = AtomicReference[Throwable | Null]()
    val reports = reported:
      Async.blocking:
        val seq = Sequentially[Int]()
        val started = CountDownLatch(1)
        val finished = CountDownLatch(1)
        val handler = Future:
          try
            try
              started.countDown()
              Promise[Unit]().future.await // a request in flight, until the shutdown
            finally
              try seq.run(1)(1): Unit // cleanup through the executor
              catch
                case e: Throwable =>
                  thrown.set(e)
                  throw e
          finally finished.countDown()
        started.await()
        seq.cancel() // the shutdown reaches the executor first
        handler.cancel()
        finished.await() // while the scope still runs: only the caller is being cancelled
    assert(thrown.get.isInstanceOf[CancellationException], thrown.get)
    assertEquals(reports, Nil)

  onBothCallers("a task offered once the executor's scope is ending ends cancelled"):
    val reports = reported:
      Async.blocking:
        var seqRef: Sequentially[Int] | Null = null
        Async.group:
          seqRef = Sequentially[Int]()
        intercept[CancellationException](seqRef.nn.submit(1)(1))
        intercept[CancellationException](seqRef.nn.run(2)(2))
    assertEquals(reports, Nil)

  onBothCallers("a task a not-yet-cancelled handler offers during the scope's shutdown is quiet"):
    val thrown = AtomicReference[Throwable | Null]()
    val reports = reported:
      Async.blocking:
        var seqRef: Sequentially[Int] | Null = null
        val release = CountDownLatch(1)
        val ready = CountDownLatch(1)
        // A handler outside the executor's scope, still live when that scope's end cancels it.
        val finished = CountDownLatch(1)
        Future:
          ready.await()
          release.await()
          try seqRef.nn.submit(1)(1): Unit
          catch
            case e: Throwable =>
              thrown.set(e)
              throw e
          finally finished.countDown()
        Async.group:
          seqRef = Sequentially[Int]()
          ready.countDown()
        release.countDown()
        finished.await() // the handler's result is never read: it is reported unless quiet
    assert(thrown.get.isInstanceOf[CancellationException], thrown.get)
    assertEquals(reports, Nil)

  onBothCallers("a live caller of a closed executor still gets SequentiallyClosedException"):
    Async.blocking:
      val closed = Sequentially[Int]()
      closed.close()
      intercept[SequentiallyClosedException](closed.submit(1)(1))
      intercept[SequentiallyClosedException](closed.run(1)(1))
      val cancelled = Sequentially[Int]()
      cancelled.cancel() // on purpose, while its scope goes on
      intercept[SequentiallyClosedException](cancelled.submit(1)(1))
      intercept[SequentiallyClosedException](cancelled.run(1)(1))
