package weft

import java.util.concurrent.{CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicReference

/**
 * An interrupt that arrives while a scope joins its children at its end: the join does not give
 * up (threads would leak), and the interrupt is kept for the caller, who sees it afterwards
 * (`CompletionGroup.waitCompletion` re-raises it).
 */
class ScopeJoinInterruptSuite extends munit.FunSuite, weft.testing.StressChecks:

  for (kind, builder) <- Seq("platform" -> Thread.ofPlatform(), "virtual" -> Thread.ofVirtual())
  do
    test(s"an interrupt during the join at a scope's end is kept for the $kind caller"):
      withinDeadline(30, "join-interrupt-"):
        val childRunning = CountDownLatch(1)
        val release = CountDownLatch(1)
        @volatile var bodyDone = false
        val seen = AtomicReference[Any]("nothing")
        val caller = builder.unstarted: () =>
          val outcome = scala.util.Try:
            Async.blocking:
              Future:
                uninterruptible: // the scope's cancel waits for this child
                  childRunning.countDown()
                  release.await(20, TimeUnit.SECONDS): Unit
              assert(childRunning.await(20, TimeUnit.SECONDS), "the child started")
              bodyDone = true
          seen.set((outcome.isSuccess, Thread.currentThread().isInterrupted))
        caller.start()
        // the body is over and the caller parks in the join, waiting for the child
        weft.testing.TimeTesting.awaitCondition("the caller joins the child"):
          bodyDone && caller.getState == Thread.State.WAITING
        caller.interrupt()
        release.countDown()
        caller.join(20_000)
        assert(!caller.isAlive, "the caller finished")
        assertEquals(
          seen.get,
          (true, true),
          "(the scope returned, the caller's interrupt flag is set afterwards)"
        )
