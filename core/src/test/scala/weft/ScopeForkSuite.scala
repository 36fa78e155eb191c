package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import scala.concurrent.duration.*
import weft.testing.UntilCancelled
import scala.jdk.CollectionConverters.*

/**
 * `Scope.current` and `scope.fork`: futures started in an enclosing scope from a nested future
 * outlive that future but not the scope; they are cancelled and joined with it.
 */
class ScopeForkSuite extends munit.FunSuite, weft.testing.StressChecks:

  override val munitTimeout = 30.seconds

  boundedTest("handlers forked by a loop outlive the loop's future, and end with the scope"):
    val handlers = ConcurrentLinkedQueue[Thread]()
    val started = CountDownLatch(3)
    val cancelled = CountDownLatch(3)
    Async.blocking:
      Async.group:
        val scope = Scope.current
        val loop = Future:
          for _ <- 1 to 3 do
            scope.fork:
              handlers.add(Thread.currentThread())
              started.countDown()
              UntilCancelled(cancelled.countDown())
          "accepted 3"
        assertEquals(loop.await, "accepted 3")
        started.await() // the loop's future has ended; its handlers run on
        assert(handlers.asScala.forall(_.isAlive))
        assertEquals(cancelled.getCount, 3L)
    assertEquals(cancelled.getCount, 0L)
    assertEquals(handlers.asScala.toList.filter(_.isAlive), Nil)

  boundedTest("a plain future started by the loop ends with the loop (the contrast)"):
    val cancelled = CountDownLatch(1)
    Async.blocking:
      val started = CountDownLatch(1)
      val loop = Future:
        Future:
          started.countDown()
          UntilCancelled(cancelled.countDown())
        started.await()
      loop.await
      assertEquals(cancelled.getCount, 0L)

  boundedTest("a fork after the scope has ended starts nothing and is cancelled"):
    val scope = Async.blocking:
      Async.group(Scope.current)
    assert(scope.isCancelled)
    val f = Async.blocking(scope.fork(1))
    assert(f.poll().exists(_.failed.toOption.exists(_.isInstanceOf[CancellationException])))

  boundedTest("in a supervised scope a forked handler's failure fails the scope, loop included"):
    val e = intercept[IllegalStateException]:
      Async.blocking:
        supervised:
          val scope = Scope.current
          assert(scope.isSupervised)
          Future:
            scope.fork(throw IllegalStateException("handler"))
            UntilCancelled()
          UntilCancelled()
    assertEquals(e.getMessage, "handler")

  boundedTest("scope.forkUnsupervised in a supervised scope keeps its failure"):
    val v = Async.blocking:
      supervised:
        val scope = Scope.current
        Future(scope.forkUnsupervised[Int](throw IllegalStateException("kept"))).await.result
    assert(v.isFailure)

  boundedTest("the enclosing scope's cancellation cancels forked handlers, no thread left"):
    val handlers = ConcurrentLinkedQueue[Thread]()
    val started = CountDownLatch(2)
    Async.blocking:
      val server = Future:
        Async.group:
          val scope = Scope.current
          Future:
            for _ <- 1 to 2 do
              scope.fork:
                handlers.add(Thread.currentThread())
                started.countDown()
                UntilCancelled()
          UntilCancelled()
      started.await()
      server.cancel()
      assert(server.result.isFailure)
    assertEquals(handlers.size, 2)
    assertEquals(handlers.asScala.toList.filter(_.isAlive), Nil)
