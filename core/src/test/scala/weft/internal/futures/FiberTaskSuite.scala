package weft
package internal.futures

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Failure, Success}

/**
 * A [[FiberTask]] runs its body on its own fiber unless it was completed first (cancelled before
 * its fiber started), and leaves its group at the end either way, so the scope's join ends.
 */
class FiberTaskSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A task that counts the runs of its body and completes with 1. */
  private final class Counting extends FiberTask[Int]:
    val runs = AtomicInteger()
    protected def runBody(): Unit =
      runs.incrementAndGet()
      complete(Success(1)): Unit

  /** Starts the fiber of `t`, linked to the current scope, as io's operations do. */
  private def start(t: Counting)(using async: Async): Unit =
    async.support.start(t): Unit

  test("a task started in a scope runs its body once and the scope's join ends"):
    val t = Counting()
    Async.blocking:
      Async.group:
        t.link(summon[Async].group)
        start(t)
        assertEquals(t.await, 1)
    assertEquals(t.runs.get, 1)

  test("a task cancelled before its fiber started never runs its body"):
    val t = Counting()
    Async.blocking:
      Async.group:
        // Linked while pending, so that the group's join waits for its fiber to leave.
        t.link(summon[Async].group)
        t.cancel()
        start(t)
    // The group joined the task's fiber: `run` is over, and it skipped the body.
    assertEquals(t.runs.get, 0, "the body of a cancelled task ran")
    t.poll() match
      case Some(Failure(_: CancellationException)) => ()
      case other                                   => fail(s"the cancelled task ended with $other")
