package weft
package internal.async

import java.lang.invoke.{MethodHandles, VarHandle}
import scala.compiletime.uninitialized
import weft.runtime.Fiber

/**
 * One membership of a [[Cancellable]] in a [[CompletionGroup]]: a node of the group's intrusive
 * list (see "Membership" in [[CompletionGroup]]).
 *
 * A runnable future is its own entry in the group it is started in, so that a spawn allocates
 * nothing to join its scope; every other membership (a promise, a timer, a nested scope, a
 * future moved to another group) is a [[GroupEntry.Boxed]].
 *
 * An entry is live from its push until [[tryLeave]] succeeds (exactly once, by compare-and-set:
 * the member leaving, the group removing a member without a thread, and an `unlink` may race).
 * It leaves in one of two ways. ''Joined'': the member ended in this group (a future's fiber at
 * its very end, a drained nested group), and the group's join still waits for what it leaves
 * behind (that fiber, the nested group's fibers). ''Moved'': an `unlink` (also the one `link`
 * does first): the member is no longer the group's to cancel or join, even if its thread still
 * runs (`GroupMembershipSuite`, "a future moved away is not joined by the scope it left").
 * Once left, it stays in the list until what it leaves behind has terminated, so the join at
 * the end of a scope still finds it; the group then unlinks it lazily.
 */
private[weft] trait GroupEntry:

  /**
   * The member this entry holds; `null` once a boxed entry has left, so that a listed entry
   * waiting to be unlinked does not keep its member (and the member's result) reachable.
   */
  def member: Cancellable | Null

  /** The group whose list holds this entry. */
  def entryGroup: CompletionGroup

  /** The next (older) entry of the list, `null` at its end, or [[GroupEntry.Unlinked]]. */
  def entryNext: GroupEntry | Null

  /** Sets [[entryNext]] (before the push, and by the group's single pruner). */
  def entryNext_=(next: GroupEntry | Null): Unit

  /** Whether the member has not left yet. */
  def isLive: Boolean

  /**
   * Marks the entry left; `true` for the one call that did, whose caller then tells the group.
   * `joined` says the member ended in this group, so its join must still wait for `fiber` (the
   * member's own, at its very end; `null` if it has none) and, for a nested group, for that
   * group's fibers; a moved member (`unlink`) passes `false`.
   */
  def tryLeave(fiber: Fiber | Null, joined: Boolean): Boolean

  /** The fiber of a member that left joined (a runnable future's own), or `null`. */
  def exitingFiber: Fiber | Null

  /** The group this entry holds, if it is a nested group that left joined; else `null`. */
  def joinedGroup: CompletionGroup | Null = null

  /**
   * The member's failure if nobody has observed it yet (see [[UnobservedFailures]]), else
   * `null`; only a runnable future has one.
   */
  def unobservedFailure: Throwable | Null = null

  /**
   * Whether the entry has left and what it leaves behind (its fiber, a nested group's fibers)
   * has terminated: it may be unlinked.
   */
  final def prunable: Boolean =
    !isLive && {
      val f = exitingFiber
      (f == null || !f.nn.isAlive) && {
        val g = joinedGroup
        g == null || g.nn.leftFibersEnded
      }
    }

  /**
   * Waits until what a left entry leaves behind has terminated (the join of a scope); a
   * drained nested group's held failures are then reported, as its own join would
   * (`GroupFailuresSuite`, "a scope's join reports the failures of a user group linked to it").
   */
  final def joinLeft(): Unit =
    val f = exitingFiber
    if f != null then f.nn.joinUninterruptibly()
    val g = joinedGroup
    if g != null then
      g.nn.joinLeftFibers()
      g.nn.reportUnobserved()

private[weft] object GroupEntry:
  inline val UNUSED = 0
  inline val LIVE = 1
  inline val LEFT = 2

  /** Left joined (see [[GroupEntry.tryLeave]]): the group still joins what it leaves behind. */
  inline val EXITED = 3

  // Before `Unlinked`, whose construction uses it.
  private val BoxedState: VarHandle =
    MethodHandles.privateLookupIn(classOf[Boxed], MethodHandles.lookup())
      .findVarHandle(classOf[Boxed], "state", classOf[Int])

  /**
   * The `next` of an entry the pruner has unlinked, so that a kept reference to a finished
   * future does not keep alive the chain of older entries behind it; a traversal that meets it
   * starts again from the head.
   */
  val Unlinked: GroupEntry = Boxed(
    new Cancellable:
      def cancel(): Unit = ()
    ,
    null
  )

  /**
   * The entry of a member that is not its own entry. It lets go of its member when it leaves
   * (`FileSuite`, "the scope does not keep a completed read's result alive", re-checks it).
   */
  class Boxed(held: Cancellable, group: CompletionGroup | Null) extends GroupEntry:
    @volatile private var state: Int = uninitialized
    @volatile private var fiber: Fiber | Null = uninitialized
    @volatile var entryNext: GroupEntry | Null = uninitialized
    // Plain: written here and cleared once by the leaver; readers check for null.
    private var memberRef: Cancellable | Null = held
    BoxedState.set(this, LIVE) // plain store: published by the push's CAS

    def member: Cancellable | Null = memberRef
    def entryGroup: CompletionGroup = group.nn
    def isLive: Boolean = state == LIVE
    // Only a joined leave's fiber: a moved member's thread is no longer this group's to join.
    def exitingFiber: Fiber | Null = if state == EXITED then fiber else null

    /** Whether this entry left joined (see [[GroupEntry.tryLeave]]). */
    protected final def leftJoined: Boolean = state == EXITED

    def tryLeave(f: Fiber | Null, joined: Boolean): Boolean =
      // The fiber is written before the CAS that publishes it; a losing call's write is never
      // read, as `exitingFiber` reads it only in the state that call could not set.
      if f != null then fiber = f
      val left = BoxedState.compareAndSet(this, LIVE, if joined then EXITED else LEFT)
      if left then memberRef = null
      left

  /**
   * The entry of a nested [[CompletionGroup]] in its parent: once the nested group has left
   * joined (drained after its cancellation), the parent's join still waits for the fibers its
   * members left behind, and may unlink the entry only once they have terminated
   * (`GroupMembershipSuite`, "a user group linked to the scope is cancelled and joined").
   */
  final class Nested(child: CompletionGroup, group: CompletionGroup) extends Boxed(child, group):
    override def joinedGroup: CompletionGroup | Null = if leftJoined then child else null
