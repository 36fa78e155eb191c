package weft

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
 * Once left, it stays in the list until its fiber, if it has one, has terminated, so the join at
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
   * A member leaving from its own `fiber` (at its very end) passes it, to be joined.
   */
  def tryLeave(fiber: Fiber | Null): Boolean

  /** The fiber recorded by [[tryLeave]] (a runnable future's own), or `null`. */
  def exitingFiber: Fiber | Null

  /**
   * The member's failure if nobody has observed it yet (see [[UnobservedFailures]]), else
   * `null`; only a runnable future has one.
   */
  def unobservedFailure: Throwable | Null = null

  /** Whether the entry has left and its fiber, if any, has terminated: it may be unlinked. */
  final def prunable: Boolean =
    !isLive && {
      val f = exitingFiber
      f == null || !f.nn.isAlive
    }

private[weft] object GroupEntry:
  inline val UNUSED = 0
  inline val LIVE = 1
  inline val LEFT = 2

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
  final class Boxed(held: Cancellable, group: CompletionGroup | Null) extends GroupEntry:
    @volatile private var state: Int = uninitialized
    @volatile private var fiber: Fiber | Null = uninitialized
    @volatile var entryNext: GroupEntry | Null = uninitialized
    // Plain: written here and cleared once by the leaver; readers check for null.
    private var memberRef: Cancellable | Null = held
    BoxedState.set(this, LIVE) // plain store: published by the push's CAS

    def member: Cancellable | Null = memberRef
    def entryGroup: CompletionGroup = group.nn
    def isLive: Boolean = state == LIVE
    def exitingFiber: Fiber | Null = fiber

    def tryLeave(f: Fiber | Null): Boolean =
      if f != null then fiber = f
      val left = BoxedState.compareAndSet(this, LIVE, LEFT)
      if left then memberRef = null
      left
