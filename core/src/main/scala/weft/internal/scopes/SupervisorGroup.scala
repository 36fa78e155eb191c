package weft
package internal.scopes

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue}
import java.util.concurrent.atomic.AtomicReference
import scala.util.{Failure, Try}
import weft.internal.async.GroupEntry
import weft.internal.futures.RunnableFuture

/**
 * The group of a [[supervised]] scope: a nested scope's group that also watches its futures.
 *
 * Every runnable future that joins the group (`Future { ... }` under the scope's `Async`, a
 * `Scope.fork`) gets one listener. When such a future fails with anything but a
 * `CancellationException`, the failure is recorded (the first one wins a compare-and-set, later
 * ones are kept to be added as suppressed) and the whole group is cancelled: the scope's body,
 * which runs as a member future, and every other future. The scope then joins them and throws
 * the first failure. Cancellations are never failures: they are what the supervisor itself
 * produces, and a future cancelled on purpose by its owner must not bring the scope down
 * (`SupervisedSuite`, "a cancelled fork does not fail the scope").
 *
 * Futures started with [[forkUnsupervised]] join a plain group instead (whose join reports their unobserved failures), created on first
 * use and linked to this group, so they are cancelled and joined with the scope, and a failure
 * of theirs that nobody observed is reported as in a plain scope, not failing this one.
 */
private[weft] final class SupervisorGroup extends CompletionGroup:
  private val first = AtomicReference[Throwable | Null]()
  private val later = ConcurrentLinkedQueue[Throwable]()
  private val unsupervisedRef = AtomicReference[CompletionGroup | Null]()

  /** Like a nested scope's group: it leaves its parent itself, once the scope has joined. */
  override private[weft] def leavesByItself: Boolean = true

  // One listener for every watched future: it holds no state and no lock.
  private val watcher: Listener[Try[Any]] = Listener: (result, _) =>
    result match
      case Failure(_: CancellationException) => ()
      case Failure(e)                        => fail(e)
      case _                                 => ()

  override private[weft] def add(member: Cancellable): GroupEntry =
    val entry = super.add(member)
    watch(member)
    entry

  /** Watches `member` if it is a runnable future: its failure fails this scope. */
  private def watch(member: Cancellable): Unit = member match
    case f: RunnableFuture[?] => f.asInstanceOf[RunnableFuture[Any]].onComplete(watcher)
    case _                    => ()

  /**
   * The group of an `uninterruptible` region opened in this scope: not linked while the region
   * is open (the scope's cancellation does not reach it), but its futures are watched as this
   * scope's are, so a failure among them fails the scope at once (`UninterruptibleRegionSuite`,
   * "a failure inside a region of a supervised scope fails the scope").
   */
  override private[weft] def regionGroup(): CompletionGroup = new CompletionGroup:
    override private[weft] def leavesWhenDrained: Boolean = false
    override private[weft] def add(member: Cancellable): GroupEntry =
      val entry = super.add(member)
      watch(member)
      entry

  /** Records `e` (first failure, or a later one) and cancels the scope. */
  private[weft] def fail(e: Throwable): Unit =
    if !first.compareAndSet(null, e) && (first.get ne e) then later.add(e)
    cancel()

  /**
   * A watched future's own failure that ended after a cancel had completed it: attached to the
   * scope's failure if the scope is failing (the cancel was most likely the supervisor's), else
   * (a future cancelled on purpose, a scope cancelled from outside or ending normally) reported
   * as unobserved: it never changes what the scope throws, and never vanishes
   * (`LateFailureSuite`).
   */
  override private[weft] def failedAfterCancel(e: Throwable): Unit =
    if first.get != null then fail(e) else super.failedAfterCancel(e)

  /** The group of this scope's unsupervised futures (created, and linked, on first use). */
  private[weft] def unsupervised: CompletionGroup =
    val u = unsupervisedRef.get
    if u != null then u
    else
      val fresh = CompletionGroup()
      if unsupervisedRef.compareAndSet(null, fresh) then
        // a plain group: if this scope is cancelled already, the link cancels it at once
        fresh.link(this)
        fresh
      else unsupervisedRef.get.nn

  /**
   * Cancels everything and waits until every future of the scope (supervised or not) and its
   * thread have ended; ignores interrupts (re-raised afterwards), as every scope's join does.
   */
  private[weft] def shutdown(): Unit =
    cancel()
    val u = unsupervisedRef.get
    if u != null then
      u.cancel()
      u.waitCompletion()
    waitCompletion()
    unlink()

  /**
   * The first failure, with the later ones added to it as suppressed (each once, never the
   * first itself), or `null` if no watched future failed. Call once, after [[shutdown]].
   */
  private[weft] def failureToThrow: Throwable | Null =
    val e = first.get
    if e != null then
      val seen = java.util.IdentityHashMap[Throwable, Unit]()
      later.forEach: s =>
        if (s ne e) && !seen.containsKey(s) then
          seen.put(s, ())
          e.addSuppressed(s)
    e
