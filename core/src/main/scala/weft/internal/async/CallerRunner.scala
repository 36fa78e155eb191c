package weft
package internal.async

import weft.runtime.Fiber

/**
 * The runner of a scope's body that runs on the thread which entered the scope
 * (`Async.blocking`): what `uninterruptible` acts on at the root.
 *
 * Nothing cancels a root scope from outside but an interrupt of its thread, which is not weft's
 * to hold back: another thread calls `Thread.interrupt` directly. So the block defers the
 * interrupt where weft sees it: one pending on entry is cleared, one seen by an await inside the
 * block is absorbed ([[absorbInterrupt]]: the await keeps waiting), and either is raised as an
 * `InterruptedException` when the outermost block ends. A block that throws rethrows its own
 * exception instead, and the interrupt stays pending (the thread's interrupt status is set). A
 * JDK blocking call inside the block still sees an interrupt that arrives while it blocks.
 * `CallerScopeSuite` and `LateFailureCombinatorsSuite` re-check it.
 *
 * Only the entering thread touches `depth` and `deferred`; `depth` is volatile because a context
 * that escaped into a child fiber reads it through [[inUninterruptible]].
 */
private[weft] final class CallerRunner(scope: CompletionGroup) extends BodyRunner:
  private val thread = Thread.currentThread()
  @volatile private var depth = 0
  private var deferred = false

  /** Never: the root is cancelled only when its body has ended. */
  def cancellationPending: Boolean = false

  def inUninterruptible: Boolean = depth > 0

  def runsOnCurrentFiber: Boolean = thread eq Thread.currentThread()

  def childScope: CompletionGroup | Null = scope

  /**
   * Called on the entering thread by an await that saw an interrupt: `true` if the interrupt is
   * deferred (inside a block), so the await keeps waiting.
   */
  def absorbInterrupt(): Boolean =
    if depth > 0 then
      deferred = true
      true
    else false

  def uninterruptibly[R](block: => R): R =
    if depth == 0 && Fiber.interrupted() then deferred = true
    depth += 1
    val result =
      try block
      catch
        case e: Throwable =>
          // The block's own failure goes on, not replaced by the deferred interrupt (which would
          // drop it: `LateFailureCombinatorsSuite`, "root uninterruptible"); the interrupt stays
          // pending on the thread, as a non-root block leaves its cancellation pending.
          if leave() then Fiber.selfInterrupt()
          throw e
    if leave() then throw InterruptedException("interrupted during an uninterruptible block")
    result

  /** Leaves one level: `true` if it was the outermost and an interrupt was deferred. */
  private def leave(): Boolean =
    depth -= 1
    if depth == 0 && (deferred | Fiber.interrupted()) then
      deferred = false
      true
    else false
