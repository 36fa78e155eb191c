package weft.keyed

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import scala.jdk.CollectionConverters.*
import scala.util.Try
import weft.{Async, Listener, UnobservedFailures}
import weft.internal.futures.CoreFuture

/**
 * A task's own failure is never lost to a cancel that raced with its end: a `cancel()` that
 * wins after the body has already failed (its result made, not yet the task's) leaves the task
 * cancelled and reports the body's failure to the executor's scope (see `LateFailureSuite`).
 */
class SequentiallyLateFailureSuite extends munit.FunSuite, weft.testing.FailureChecks:

  /** Waits for `latch`, swallowing interrupts (the cancel interrupts the worker). */
  def awaitDeaf(latch: CountDownLatch): Unit =
    var done = false
    while !done do
      try
        latch.await()
        done = true
      catch case _: InterruptedException => ()

  onBothCallers("a cancel that wins after the body failed reports the body's failure"):
    val bodyEnded = CountDownLatch(1)
    val cancelDone = CountDownLatch(1)
    val boom = IllegalStateException("the body's own, before the cancel won")
    val reports = ConcurrentLinkedQueue[Throwable]()
    var outcome: Try[Int] | Null = null
    UnobservedFailures.withHandler(e => reports.add(e): Unit):
      Async.blocking:
        val seq = Sequentially[Int]()
        val task = seq.submit[Int](1):
          // The body's run completes with `boom`, then holds the worker (in a listener of that
          // run) before the task takes the result: the cancel below wins in that window.
          val run = summon[Async].asInstanceOf[CoreFuture[Int]]
          run.onComplete(Listener: (_, _) =>
            bodyEnded.countDown()
            awaitDeaf(cancelDone)
          )
          throw boom
        bodyEnded.await()
        task.cancel()
        cancelDone.countDown()
        outcome = task.result
        seq.close()
    assert(
      outcome.nn.failed.toOption.exists(_.isInstanceOf[CancellationException]),
      s"the cancel completed the task: $outcome"
    )
    assertEquals(reports.asScala.toList, List[Throwable](boom))
