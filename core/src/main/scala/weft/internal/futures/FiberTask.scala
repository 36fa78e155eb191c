package weft
package internal.futures

import scala.compiletime.uninitialized
import scala.util.Try
import weft.runtime.Fiber
import weft.internal.InternalApi

/**
 * The future of a body that runs on a fiber of its own and is not a runnable future: io's
 * operations (`weft.io`'s `IOTask`). Its fiber calls [[run]], which runs [[runBody]] unless the
 * future was completed first (cancelled before its fiber started), then leaves the task's
 * group: the group's join waits for that fiber, so nothing outlives the scope.
 *
 * It marks itself finished before it leaves, so that linking it into a group after its end adds
 * nothing for that group to wait for (`Cancellable.leaveFinished`; `IOTaskMembershipSuite`,
 * "linking a finished ...", re-checks it).
 */
@InternalApi
abstract class FiberTask[T] extends CoreFuture[T], Runnable:

  // Its fiber once `run` has reached its very end (see `Cancellable.leaveFinished`).
  @volatile private var finished: Fiber | Null = uninitialized

  /** Its fiber leaves the group at the end of [[run]]: the scope's join waits for it. */
  override private[weft] final def leavesByItself: Boolean = true

  override private[weft] final def finishedFiber: Fiber | Null = finished

  override private[weft] final def markFinished(fiber: Fiber): Unit = finished = fiber

  /** The task's work, on its own fiber: completes the future with [[complete]]. */
  protected def runBody(): Unit

  /** Completes the future with `result` unless it is already done; whether this call did. */
  protected final def complete(result: Try[T]): Boolean = tryComplete(result)

  /** Runs the task on the calling fiber, which must be the task's own (started for it). */
  final def run(): Unit =
    val self = Fiber.current
    if !isDone then runBody()
    leaveFinished(self)
