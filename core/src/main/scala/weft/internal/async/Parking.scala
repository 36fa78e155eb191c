package weft
package internal.async

import java.util.concurrent.CancellationException
import weft.runtime.Fiber
import weft.internal.InternalApi

/**
 * The one park of every weft wait: an await, a select, a channel's parked reader or sender, a
 * semaphore's parked acquirer. Each of them loops "park, then look at my cell or listener", and
 * they must agree on what an interrupt means, so the rule lives here only.
 *
 * An interrupt seen while parked makes the wait give up (it leaves its cell or drops its
 * listener, keeping a value delivered first, ADR 0006), except at a root scope's body inside
 * `uninterruptible`: the root's runner absorbs it (`CallerRunner.absorbInterrupt`), the wait parks
 * again, and the interrupt is raised when the block ends (ADR 0016). A runnable future's
 * cancellation does not interrupt inside a block at all, so the rule is about the root.
 * `RootUninterruptibleSuite` re-checks it for reads, sends and acquires, on platform and virtual
 * callers; `CallerScopeSuite` for awaits.
 */
@InternalApi
object Parking:

  /**
   * Parks the current fiber once (until unparked, interrupted, or spuriously): `true` if it was
   * interrupted and the wait must give up now, `false` if it should look at its state and park
   * again (woken, spurious, or an interrupt the context defers). Clears the interrupt status.
   */
  inline def parkOnce(blocker: AnyRef)(using async: Async): Boolean =
    Fiber.park(blocker)
    Fiber.interrupted() && !async.absorbsInterrupt

  /**
   * What a wait that gave up on an interrupt throws: a `CancellationException` if the context's
   * scope (or future) is cancelled, else an `InterruptedException` (a foreign interrupt).
   */
  def gaveUp(what: String)(using async: Async): Exception =
    if async.cancellationPending then CancellationException(s"$what: the scope was cancelled")
    else InterruptedException()
