package weft
package internal.async

import scala.compiletime.uninitialized
import weft.runtime.{AsyncSupport, Fiber}
import weft.internal.cells.CellSegment

/**
 * The `Async` of a scope (`Async.blocking`, `Async.group`) and of a future's body moved to
 * another group (`withGroup`); a runnable future's body runs with the future itself as context.
 * @param runner
 *   the future whose body this context belongs to, or `null` at a root scope
 */
private[weft] final class AsyncContext(
    val group: CompletionGroup,
    val runner: BodyRunner | Null,
    val support: AsyncSupport
) extends Async:

  def withGroup(g: CompletionGroup): Async = AsyncContext(g, runner, support)

  /**
   * The future whose body runs on the calling fiber: normally [[runner]]. But a context can
   * reach another fiber: `def spawn(body: => Unit)(using Async) = Future(body)` evaluates a
   * by-name `uninterruptible(...)` written with the parent's context on the child's fiber.
   * Deferring the parent's cancellation from there would leave the parent uninterruptible for
   * good, so the futures started under this context are searched for the one running here
   * (rare, and bounded by the scope's tree). `null` if none: the block then defers nothing.
   * `CancellationSuite`, "uninterruptible through a by-name helper", re-checks it.
   */
  private[weft] def runnerOnCurrentFiber: BodyRunner | Null =
    val r = runner
    if r != null && r.runsOnCurrentFiber then r else BodyRunner.onCurrentFiberIn(group)

  /**
   * At a root scope (or in a `withTimeout` block, which asks its caller), on its own thread:
   * whether its runner defers the interrupt.
   */
  override private[weft] def absorbsInterrupt: Boolean = runner match
    case r: CallerRunner  => r.runsOnCurrentFiber && r.absorbInterrupt()
    case r: TimeoutRegion => r.runsOnCurrentFiber && r.absorbsInterrupt
    case _                => false

  /** Whether the scope (or the future) this context belongs to has been cancelled. */
  private[weft] def cancellationPending: Boolean =
    val r = runner
    if r == null then group.isCancelled
    else r.cancellationPending || (group.isCancelled && !r.inUninterruptible)

private[weft] object AsyncContext:

  /**
   * The listener of one `await`: stores the value and unparks the waiting fiber.
   *
   * It is its own lock, so that an awaiter that gives up can make it uncompletable: a source
   * that took the waiter off its queue and completes it outside its own lock (a semaphore's
   * `release`) must learn that the awaiter has left, and keep its value, rather than hand it to
   * nobody. [[giveUp]] decides that race (the rule of ADR 0006); `SemaphoreSuite` and
   * `AwaitAbandonSuite` re-check it.
   *
   * A claim is declined once the awaiting future has a cancellation pending, except the
   * awaiter's own [[giveUp]]: the rule of an [[WaiterLock]].
   */
  final class Waiter[T](fiber: Fiber, owner: Async)
      extends WaiterLock(owner),
        Listener[T],
        CellSegment.Findable:
    val lock: ListenerLock | Null = this
    // Written before the lock is retired as taken, read after it is seen so (see `isDone`). The
    // lock's state tells a completion from a give-up, so the waiter needs no flag of its own.
    private var result: T | Null = uninitialized
    def complete(data: T, source: Source[T]): Unit =
      result = data
      retireTaken()
      fiber.unparkOther()

    /** Whether a source has completed the waiter. */
    def isDone: Boolean = isTaken

    /** The value; only valid when [[isDone]]. */
    def value: T = result.asInstanceOf[T]

    /**
     * Called by the awaiter leaving without a value (after dropping the waiter from its
     * source): `true` if a source completed it first, so [[value]] must be kept; otherwise no
     * source can complete it any more.
     */
    def giveUp(): Boolean = !retireUnused()
