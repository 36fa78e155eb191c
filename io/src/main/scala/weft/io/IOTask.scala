package weft.io

import java.util.concurrent.CancellationException
import scala.util.{Failure, Success, Try}
import weft.{Async, Future}
import weft.internal.futures.FiberTask

/**
 * The future of one blocking IO operation, run on its own virtual thread.
 *
 * ==Algorithm==
 * On a virtual thread a blocking NIO call parks the thread, not a carrier, so the simplest
 * design is also a fast one: [[IOTask.start]] links the task to the caller's completion group
 * (so the scope cancels and joins it) and starts a virtual thread that runs `body` and completes
 * the future with its result. No selector, no callback thread, no extra copy.
 *
 * Failures are completed with the JDK's exception, re-created with the owner's description (a
 * path or an address) in its message by [[IOErrors.withContext]].
 *
 * ==Cancellation==
 * [[cancel]] completes the future with `Failure(CancellationException)` at once and, if that
 * call is the one that completed it, closes the owning resource. Closing is what
 * stops a blocked read or write (it fails with `AsynchronousCloseException`, which nobody sees)
 * and it is the one state that is defined after an operation was cut short at an unknown byte.
 * The task's thread is not interrupted: the close is enough, and an interrupt would outlive
 * the operation. A task cancelled after it produced a value hands the value to `discard`
 * (e.g. to close a connection nobody will receive).
 *
 * The task leaves its group from its own thread at the very end, so the scope's join waits for
 * that thread: nothing outlives the scope ([[weft.internal.futures.FiberTask]], core's internal
 * API, holds that part).
 */
final private[io] class IOTask[T](
    owner: IOResource,
    body: () => T,
    discard: T => Unit
) extends FiberTask[T]:

  protected def runBody(): Unit =
    val result: Try[T] =
      try Success(body())
      catch case e: Throwable => Failure(owner.failure(e))
    if !complete(result) then
      result match
        case Success(v) => discard(v)
        case _          => ()

  override def cancel(): Unit =
    if complete(Failure(CancellationException(s"${owner.describe}: operation cancelled"))) then
      owner.closeOnCancel()

/** Starting [[IOTask]]s. */
private[io] object IOTask:

  private val noDiscard: Any => Unit = _ => ()

  /**
   * Runs `body` now, on the caller's thread, and returns its result as a completed future
   * (failures re-created with the owner's description): for operations that finish in
   * microseconds and cannot block indefinitely, where a thread handoff would cost more than
   * the operation.
   */
  inline def inPlace[T](owner: IOResource)(inline body: T): Future[T] =
    try Future.successful(body)
    catch case e: Throwable => Future.failed(owner.failure(e))

  /** Starts `body` on a new virtual thread in the caller's scope; see [[IOTask]]. */
  def start[T](owner: IOResource, discard: T => Unit = noDiscard)(body: => T)(using
      async: Async
  ): Future[T] =
    val task = IOTask[T](owner, () => body, discard)
    task.link(async.group)
    async.support.start(Launch(task))
    task

  /**
   * Runs a task once and forgets it. A finished thread keeps its `Runnable` (the JDK's virtual
   * thread holds it in its continuation), and the scope keeps the threads that left its group
   * until it joins them at its end; without this indirection every completed task, with its
   * result (a 40 MB `String`, say), would stay reachable until the scope ends.
   */
  final private class Launch(private var task: Runnable | Null) extends Runnable:
    def run(): Unit =
      val t = task.nn
      task = null
      t.run()

/** What an [[IOTask]] works on: it can be described in messages and closed on cancellation. */
private[io] trait IOResource extends AutoCloseable:
  /** The path or address, for error messages. */
  private[io] def describe: String

  /** Closes the resource; idempotent. */
  def close(): Unit

  /** `e`, a failure of an operation on this resource, with the resource in its message. */
  private[io] def failure(e: Throwable): Throwable = IOErrors.withContext(e, describe)

  /** Closes the resource after a cancellation; must not block for long. */
  private[io] def closeOnCancel(): Unit = close()
