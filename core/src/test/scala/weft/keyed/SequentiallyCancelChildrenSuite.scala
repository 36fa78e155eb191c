package weft.keyed

import java.util.concurrent.{CancellationException, CountDownLatch}
import weft.*
import weft.testing.InvariantChecks

/**
 * Cancelling a running keyed task cancels the futures its body started at once, within
 * `cancel()`, not only when the body ends: the body here survives its interrupt and goes on
 * waiting, so only `cancel()` itself can reach the child.
 */
class SequentiallyCancelChildrenSuite extends munit.FunSuite, InvariantChecks:

  test("cancelling a running task cancels its children while its body still runs"):
    holdsWithin(10, "cancelling a running keyed task cancels the futures it started"):
      Async.blocking:
        val seq = Sequentially[String]()
        val childRef = Promise[Future[Unit]]()
        val release = CountDownLatch(1)
        val task = seq.submit("k"):
          childRef.success(Future(Thread.sleep(60_000)))
          var waiting = true
          while waiting do
            try
              release.await()
              waiting = false
            catch case _: InterruptedException => () // survives the interrupt: keeps waiting
        val child = childRef.future.value
        task.cancel()
        val seen = child.poll()
        release.countDown()
        assert(seen.isDefined, "the child of a cancelled running task is still running")
        assert(seen.get.failed.get.isInstanceOf[CancellationException], s"got $seen")
