package weft

import java.util.concurrent.locks.ReentrantLock
import scala.compiletime.uninitialized
import weft.runtime.Fiber

/** Something that can be cancelled, and that belongs to at most one [[CompletionGroup]]. */
trait Cancellable:

  /** Requests cancellation. Idempotent; never blocks for long. */
  def cancel(): Unit

  /**
   * Whether this member leaves its group by itself once it has finished (a future's fiber
   * leaves at the end of its body), so that the group's join waits for it. A member that does
   * not (a promise's future, a timer, a user's `Cancellable`) has no thread to join: the group
   * removes it as soon as it has cancelled it, so linking one never makes a scope wait forever
   * (`StructuredConcurrencySuite`, "a linked promise does not hold its scope").
   */
  private[weft] def leavesByItself: Boolean = false

  @volatile private var owner: CompletionGroup | Null = uninitialized

  /**
   * Makes this a member of `group` (leaving any previous group): cancelled when it is.
   *
   * @throws java.util.concurrent.CancellationException
   *   if `group` is already cancelled (this is then cancelled too)
   */
  def link(group: CompletionGroup): this.type =
    unlink()
    owner = group
    group.add(this)
    this

  /** Leaves the current group, if any. */
  def unlink(): this.type =
    val g = owner
    if g != null then
      owner = null
      g.remove(this, null)
    this

  /**
   * Leaves the group from the member's own fiber, at its very end: the group's
   * `waitCompletion` then joins `fiber`, so that it has terminated when the scope ends.
   */
  private[weft] def unlinkExiting(fiber: Fiber): Unit =
    val g = owner
    if g != null then
      owner = null
      g.remove(this, fiber)

/**
 * A set of [[Cancellable]] members cancelled together: the scope of structured concurrency.
 *
 * Every future started under an `Async` becomes a member of that `Async`'s group and leaves it
 * when its thread has finished. `Async.blocking` and `Async.group` end by cancelling their
 * group and waiting ([[waitCompletion]]) until it is empty, so nothing outlives them. Members
 * without a thread of their own (a linked promise, a timer) are removed when they are
 * cancelled. A member whose `cancel()` throws does not stop the others from being cancelled:
 * its exception goes to the current thread's uncaught-exception handler.
 *
 * A group is itself `Cancellable`, so groups nest: cancelling a group cancels its subgroups.
 * Members are kept under a `ReentrantLock` (never `synchronized`, which pins virtual threads).
 * Most groups (one per runnable future, for its children) never get a member, so the set and
 * its lock are allocated on the first member only.
 */
class CompletionGroup extends Cancellable:
  import CompletionGroup.Members

  @volatile private var membersRef: Members | Null = uninitialized
  @volatile private var cancelled: Boolean = uninitialized

  private def members(): Members =
    val m = membersRef
    if m != null then m
    else
      val fresh = Members()
      if CompletionGroup.MEMBERS.compareAndSet(this, null, fresh) then fresh else membersRef.nn

  /** Whether [[cancel]] has been called. */
  def isCancelled: Boolean = cancelled

  /** Cancels every member, now and any added later. Idempotent; never throws. */
  def cancel(): Unit =
    if !cancelled then
      cancelled = true
      val m = membersRef
      if m != null then m.snapshot().foreach(cancelMember)

  /** Adds a member; if the group is already cancelled, the member is cancelled at once. */
  private[weft] def add(member: Cancellable): Unit =
    members().add(member)
    if cancelled then cancelMember(member)

  /**
   * Cancels one member; a member without a thread of its own then leaves at once. A throwing
   * `cancel` is reported and does not stop the teardown (`StructuredConcurrencySuite`, "a
   * member whose cancel throws").
   */
  private def cancelMember(member: Cancellable): Unit =
    try member.cancel()
    catch case e: Throwable => Fiber.reportUncaught(e)
    if !member.leavesByItself then remove(member, null)

  /**
   * Removes a member; wakes [[waitCompletion]] when the group becomes empty. A member leaving
   * from its own `fiber` passes it, to be joined by [[waitCompletion]].
   */
  private[weft] def remove(member: Cancellable, fiber: Fiber | Null): Unit =
    val m = membersRef
    if m != null then m.remove(member, fiber)

  /** The members now (empty if none): a snapshot, for the search of a fiber's future. */
  private[weft] def memberSnapshot: Array[Cancellable] =
    val m = membersRef
    if m == null then Array.empty else m.snapshot()

  /** The number of current members. */
  def size: Int =
    val m = membersRef
    if m == null then 0 else m.size

  /**
   * Blocks until the group has no members and the fibers of the members that left have
   * terminated, ignoring interrupts (re-raised afterwards): it is the join at the end of a
   * scope, which must not be cut short or threads would leak.
   */
  private[weft] def waitCompletion(): Unit =
    val m = membersRef
    if m != null then m.awaitEmpty()

  /**
   * Blocks until the group has no members, without joining the fibers that left; an interrupt
   * ends the wait with `InterruptedException`. A platform thread entering a scope waits here for
   * the body's future to leave the root group: one wake-up, at the body's very end.
   */
  private[weft] def waitEmptyInterruptibly(): Unit =
    val m = membersRef
    if m != null then m.awaitEmptyInterruptibly()

/** Factories for [[CompletionGroup]]. */
object CompletionGroup:

  /** A new, empty, uncancelled group. */
  def apply(): CompletionGroup = new CompletionGroup

  /**
   * The group of a nested scope (`Async.group`): it leaves its parent group itself, when the
   * scope's body and join are over, so the parent's join waits for it.
   */
  private[weft] def scoped(): CompletionGroup = new CompletionGroup:
    override private[weft] def leavesByItself: Boolean = true

  private val MEMBERS =
    java.lang.invoke.MethodHandles
      .privateLookupIn(classOf[CompletionGroup], java.lang.invoke.MethodHandles.lookup())
      .findVarHandle(classOf[CompletionGroup], "membersRef", classOf[Members])

  /**
   * The member set with its lock and "became empty" condition, and the fibers of members that
   * left but may still be finishing their last instructions (pruned of terminated ones as it
   * grows, joined by `awaitEmpty`).
   */
  private final class Members:
    private val lock = ReentrantLock()
    private val emptied = lock.newCondition()
    private val set = java.util.HashSet[Cancellable]()
    private val exiting = java.util.ArrayList[Fiber]()
    private var pruneAt = 64

    def add(c: Cancellable): Unit =
      lock.lock()
      try set.add(c)
      finally lock.unlock()

    def remove(c: Cancellable, fiber: Fiber | Null): Unit =
      lock.lock()
      try
        if fiber != null then
          if exiting.size >= pruneAt then
            // Fibers that left recently are usually still alive: prune, then wait for the list
            // to double before pruning again, so that leaving stays amortised O(1).
            exiting.removeIf(f => !f.isAlive)
            pruneAt = math.max(64, exiting.size * 2)
          exiting.add(fiber.nn)
        if set.remove(c) && set.isEmpty then emptied.signalAll()
      finally lock.unlock()

    def size: Int =
      lock.lock()
      try set.size
      finally lock.unlock()

    def snapshot(): Array[Cancellable] =
      lock.lock()
      try set.toArray(Array.empty[Cancellable])
      finally lock.unlock()

    def awaitEmptyInterruptibly(): Unit =
      lock.lockInterruptibly()
      try while !set.isEmpty do emptied.await()
      finally lock.unlock()

    def awaitEmpty(): Unit =
      lock.lock()
      val toJoin =
        try
          while !set.isEmpty do emptied.awaitUninterruptibly()
          val a = exiting.toArray()
          exiting.clear()
          a
        finally lock.unlock()
      toJoin.foreach(f => f.asInstanceOf[Fiber].joinUninterruptibly())
