package weft

import scala.compiletime.uninitialized
import weft.runtime.Fiber
import weft.internal.async.GroupEntry

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

  // This member's entry in its group (see [[GroupEntry]]), `null` when in none.
  @volatile private var membership: GroupEntry | Null = uninitialized

  /**
   * The entry for a membership in `group`: a runnable future is its own, the first time.
   * Called by the group while adding.
   */
  private[weft] def entryFor(group: CompletionGroup): GroupEntry =
    GroupEntry.Boxed(this, group)

  /**
   * The fiber of a member that has reached its very end (a runnable future past its body), or
   * `null`: linking such a member leaves the new group again at once, as nothing would ever
   * make it leave (`GroupMembershipSuite`, "linking a finished future does not hold the scope").
   */
  private[weft] def finishedFiber: Fiber | Null = null

  /**
   * Records that this member, run by `fiber`, has reached its very end, so that
   * [[finishedFiber]] returns `fiber` from then on. Members that leave by themselves override
   * it (with [[finishedFiber]]); called only by [[leaveFinished]].
   */
  private[weft] def markFinished(fiber: Fiber): Unit = ()

  /**
   * The very end of a member that leaves by itself, from its own `fiber`: marks it finished,
   * then leaves its group joined. The mark comes first: a `link` racing with this end either
   * sees it (`CompletionGroup.add` checks [[finishedFiber]] after attaching) or is seen by the
   * leave, so the member never stays live in a group (`GroupMembershipSuite` and
   * `IOTaskMembershipSuite`, "linking a finished ...").
   */
  private[weft] final def leaveFinished(fiber: Fiber): Unit =
    markFinished(fiber)
    unlinkExiting(fiber)

  /** The group this member belongs to now, or `null` if it is in none. */
  private[weft] final def currentGroup: CompletionGroup | Null =
    val e = membership
    if e == null then null else e.entryGroup

  /**
   * Makes this a member of `group` (leaving any previous group): cancelled when it is, and
   * joined by it. If `group` is already cancelled, this is cancelled at once. A future moved
   * so is no longer the previous group's to cancel or join: the new group's scope waits for its
   * thread, the old one's does not. A future that has already finished is not held by `group`.
   * A failure nobody observed is reported by the join of the group the future belongs to when
   * it ends.
   */
  def link(group: CompletionGroup): this.type =
    unlink()
    group.add(this): Unit
    this

  /**
   * Records `e` as this member's entry; called by the group before it publishes `e`, so that an
   * `unlink` from another thread right after (a ticker cancelled at once) finds it.
   */
  private[weft] final def attach(e: GroupEntry): Unit = membership = e

  /**
   * Leaves the current group, if any. Nobody owns the member afterwards: no scope cancels it,
   * and no scope waits for it (an unlinked future's thread may outlive the scope it was started
   * in, gears' "zombie" futures); link it to a group to give it an owner again. As no join
   * will report it, an unlinked future that fails unobserved is reported to
   * [[UnobservedFailures]] when it ends.
   */
  def unlink(): this.type =
    val e = membership
    if e != null then
      membership = null
      if e.tryLeave(null, false) then e.entryGroup.memberLeft()
    this

  /**
   * Leaves the group because this member has ended in it: from the member's own fiber at its
   * very end (the group's `waitCompletion` then joins `fiber`, so that it has terminated when
   * the scope ends), or, with `null`, a nested group that has drained (the parent then joins
   * the fibers its members left behind).
   */
  private[weft] def unlinkExiting(fiber: Fiber | Null): Unit =
    val e = membership
    if e != null then
      membership = null
      if e.tryLeave(fiber, true) then e.entryGroup.memberLeft()
