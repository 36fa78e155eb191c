package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import scala.compiletime.uninitialized
import weft.runtime.Fiber
import weft.internal.async.{FailureLog, GroupEntry, Parking}

/**
 * A set of [[Cancellable]] members cancelled together: the scope of structured concurrency.
 *
 * Every future started under an `Async` becomes a member of that `Async`'s group and leaves it
 * when its thread has finished. `Async.blocking` and `Async.group` end by cancelling their
 * group and waiting until it is empty and the threads of its members have terminated, so
 * nothing outlives them. Members without a thread of their own (a linked promise, a timer) are
 * removed when they are cancelled. A member whose `cancel()` throws does not stop the others
 * from being cancelled: its exception goes to the current thread's uncaught-exception handler.
 *
 * ==Moving members==
 * A member belongs to one group at a time. `f.link(other)` moves it: `other` cancels and joins
 * it from then on, and the group it left does neither. `f.unlink()` makes it nobody's: no scope
 * cancels or waits for it. Linking a future that has already finished adds nothing to wait for.
 *
 * ==Nested groups==
 * A group is itself `Cancellable`, so groups nest: cancelling a group cancels its subgroups.
 * A group of your own linked to a scope (`CompletionGroup().link(summon[Async].group)`) is
 * cancelled when the scope ends and, like a future, joined: it leaves the scope only once it is
 * cancelled and all its members have left, and the scope returns only once their threads have
 * terminated. A group you own and have not linked anywhere is joined by nobody but you:
 * [[join]] waits for its members.
 */
class CompletionGroup extends Cancellable:
  import CompletionGroup.*

  // ==Membership== (lock-free; `GroupMembershipLincheckSuite` model-checks it)
  // An intrusive list of entries, newest first, pushed by CAS on `head` (a runnable future is
  // its own entry, so joining a scope allocates nothing), and one packed counter: the live
  // members in the low 32 bits, the pushes since the last pruning in the high ones. A member
  // leaves by marking its entry (`GroupEntry.tryLeave`) and decrementing the live count; the
  // one that makes it 0 wakes the waiters. Left entries are unlinked lazily, by one pruner at a
  // time, once pushes outnumber twice the live members: pushes only touch `head`, the pruner
  // only the `next` of entries behind it, so the two never conflict, and the pruning costs
  // amortised O(1) per push. An entry stays listed until its fiber has terminated, so the join
  // finds every fiber of a member that left (what `exiting` lists kept before).
  // Adding and cancelling are a Dekker pair: `add` pushes, then reads `cancelled`; `cancel`
  // writes `cancelled`, then walks the list: one of them sees the other, so a member added
  // during a cancellation is cancelled.
  @volatile private var head: GroupEntry | Null = uninitialized
  @volatile private var counts: Long = uninitialized
  @volatile private var cancelled: Boolean = uninitialized
  @volatile private var waiters: Waiting | Null = uninitialized
  @volatile private var pruning: Int = uninitialized
  @volatile private var failures: FailureLog | Null = uninitialized

  /**
   * The group of an `uninterruptible` region opened with this group as the enclosing scope's: a
   * nested scope's group, linked to nothing while the region is open. A supervised scope's
   * watches its futures too.
   */
  private[weft] def regionGroup(): CompletionGroup = CompletionGroup.scoped()

  /** Whether [[cancel]] has been called. */
  def isCancelled: Boolean = cancelled

  /** A group's entry in its parent lets the parent's join reach the fibers it leaves behind. */
  override private[weft] def entryFor(group: CompletionGroup): GroupEntry =
    GroupEntry.Nested(this, group)

  /** Pushes allowed beyond twice the live members before a pruning (small in model checks). */
  private[weft] def pruneSlack: Int = PruneSlack

  /**
   * A group leaves its own group by itself (never removed at its cancellation while members
   * with threads remain): see [[leavesWhenDrained]] for when.
   */
  override private[weft] def leavesByItself: Boolean = true

  /**
   * Whether this group leaves the group it is linked to as soon as it is cancelled and has no
   * members left (so that its parent's join waits for its members, and only for them). A
   * nested scope's group (`Async.group`) does not: its scope unlinks it after its own join, as
   * its body, which may still start futures, runs until then.
   */
  private[weft] def leavesWhenDrained: Boolean = true

  /**
   * Cancels every member, now and any added later. Idempotent; never throws. A group linked to
   * another one leaves it once its members have left too (see "Nested groups").
   */
  def cancel(): Unit =
    if !cancelled then
      cancelled = true
      forEachEntry(e => if e.isLive then cancelMember(e))
    // The other half of the pair with `memberLeft`, which reads `cancelled` after its
    // decrement: one of the two sees the group drained and cancelled. Also when cancelled
    // before: a drained group linked since then leaves when its new parent cancels it.
    if live(counts) == 0 then leaveDrained()

  /** Adds a member and returns its entry; if the group is cancelled, cancels it at once. */
  private[weft] def add(member: Cancellable): GroupEntry =
    val e = member.entryFor(this)
    // Counted before it is visible: a cancel that finds it, or an `unlink` once it is attached,
    // may make it leave at once.
    val before: Long = COUNTS.getAndAdd(this, OnePush + 1L)
    member.attach(e)
    var h = head
    e.entryNext = h
    while !HEAD.compareAndSet(this, h, e) do
      h = head
      e.entryNext = h
    if cancelled then cancelMember(e)
    // A future past its end never leaves again: it leaves now, joined, its fiber terminating.
    // `attach` above and the member's mark in `leaveFinished` are a Dekker pair, so one of the
    // two makes the entry leave (`GroupMembershipSuite`, "linking a finished future";
    // `IOTaskMembershipSuite` for an IO task).
    val gone = member.finishedFiber
    if gone != null && e.tryLeave(gone, true) then memberLeft()
    val pushes = (before >>> 32) + 1
    if pushes > 2 * live(before) + pruneSlack then prune()
    e

  /** Called once per entry that left (after its `tryLeave`): the last one wakes the waiters. */
  private[weft] def memberLeft(): Unit =
    val before: Long = COUNTS.getAndAdd(this, -1L)
    if live(before) == 1 then
      val w = WAITERS.getAndSet(this, null).asInstanceOf[Waiting | Null]
      if w != null then w.wakeAll()
      if cancelled then leaveDrained()

  /**
   * A cancelled group without members leaves the group it is linked to, joined: the parent's
   * join then waits for the fibers its members left behind (see [[GroupEntry.Nested]]).
   * Idempotent (the entry's compare-and-set); nothing for a group linked nowhere.
   */
  private def leaveDrained(): Unit =
    if leavesWhenDrained then unlinkExiting(null)

  /**
   * Cancels one member; a member without a thread of its own then leaves at once. A throwing
   * `cancel` is reported and does not stop the teardown (`StructuredConcurrencySuite`, "a
   * member whose cancel throws").
   */
  private def cancelMember(e: GroupEntry): Unit =
    val member = e.member
    if member != null then
      try member.cancel()
      catch case ex: Throwable => Fiber.reportUncaught(ex)
      if !member.leavesByItself && e.tryLeave(null, false) then memberLeft()

  /**
   * Calls `f` on every listed entry. A traversal that reaches an entry the pruner has just
   * unlinked starts again from the head, so `f` may see an entry twice (every use is
   * idempotent).
   */
  private inline def forEachEntry(inline f: GroupEntry => Unit): Unit =
    var e = head
    while e != null do
      val next = e.entryNext
      if isUnlinkedMark(next) then e = head
      else
        f(e.nn)
        e = next

  // Not inline, and called by the inline `forEachEntry`: an inline body naming `GroupEntry`, an
  // object of another package, gets an accessor that Scala 3.3 emits as a read of the package
  // itself (`LayersSuite`, "no class refers to a package as an object").
  private def isUnlinkedMark(e: GroupEntry | Null): Boolean = e eq GroupEntry.Unlinked

  /**
   * Unlinks the entries that have left and whose fibers have terminated, if no other thread is
   * pruning. Never the head, which only pushes move.
   */
  private def prune(): Unit =
    if PRUNING.compareAndSet(this, 0, 1) then
      try
        val pushes = counts >>> 32
        var prev = head
        if prev != null then
          var e = prev.entryNext
          while e != null do
            val next = e.entryNext
            if e.prunable then
              // A drained nested group unlinked here is never walked by a join again: what it
              // holds is reported now (`GroupFailuresSuite`, "a scope's join reports ...").
              val g = e.joinedGroup
              if g != null then g.nn.reportUnobservedNested()
              prev.nn.entryNext = next
              e.entryNext = GroupEntry.Unlinked
            else prev = e
            e = next
        COUNTS.getAndAdd(this, -(pushes << 32))
      finally pruning = 0

  /** The live members now (empty if none): a snapshot, for the search of a fiber's future. */
  private[weft] def memberSnapshot: Array[Cancellable] =
    val b = Array.newBuilder[Cancellable]
    val seen = java.util.IdentityHashMap[Cancellable, Cancellable]()
    forEachEntry { e =>
      val m = e.member
      if m != null && e.isLive && seen.put(m, m) == null then b += m
    }
    b.result()

  /** The number of current members. */
  def size: Int = live(counts)

  /** The entries listed now, left ones not yet unlinked included: for tests. */
  private[weft] def listedEntries: Int =
    var n = 0
    forEachEntry(_ => n += 1)
    n

  /**
   * Blocks until the group has no members and the fibers of the members that left joined have
   * terminated, ignoring interrupts (re-raised afterwards): it is the join at the end of a
   * scope, which must not be cut short or threads would leak. It is called once the group is
   * cancelled, and then waits only for cancelled members' threads to end, never for a call the
   * user has yet to make: a nested group of the user's (a `Resource.spawning.allocated` scope
   * included) drains and leaves when cancelled, and a moved future is not waited for.
   */
  private[weft] def waitCompletion(): Unit =
    var interrupted = false
    // Park until no member is live, on a node of the waiters' stack (re-pushed after a wake-up
    // that found a new member).
    while live(counts) != 0 do
      val w = Waiting(Fiber.current, waiters)
      if WAITERS.compareAndSet(this, w.next, w) then
        while live(counts) != 0 && !w.woken do
          Fiber.park(this)
          if Fiber.interrupted() then interrupted = true
    joinLeftFibers()
    reportUnobserved()
    if interrupted then Fiber.selfInterrupt()

  /**
   * Waits until this group has no members and the threads of those that left have terminated:
   * the join of a group you own (one linked to a scope is joined by the scope's end anyway).
   * It does not cancel anything; call [[cancel]] first to stop the members. Unlike a scope's
   * own join it can be cut short, as it may wait on work that never ends by itself. Like a
   * scope's join, it then reports the failures of member futures that nobody observed to
   * [[UnobservedFailures]], each once over all joins (nested groups' too).
   *
   * @throws java.util.concurrent.CancellationException
   *   if the caller's scope (or future) is cancelled while waiting
   * @throws InterruptedException
   *   if the calling thread is interrupted otherwise
   */
  def join()(using async: Async): Unit =
    if async.cancellationPending then throw Parking.gaveUp("joining a group")
    while live(counts) != 0 do
      val w = Waiting(Fiber.current, waiters)
      if WAITERS.compareAndSet(this, w.next, w) then
        while live(counts) != 0 && !w.woken do
          if Parking.parkOnce(this) then throw Parking.gaveUp("joining a group")
    // Left members' threads are past their last await: this wait is short and not cut.
    joinLeftFibers()
    // Like a scope's join, it reports what nobody observed, once (`GroupFailuresSuite`,
    // "join() reports the group's unobserved failures, once").
    reportUnobserved()

  /** Joins what the entries that left joined leave behind (recursively, for nested groups). */
  private[weft] def joinLeftFibers(): Unit =
    forEachEntry(e => if !e.isLive then e.joinLeft())

  /** Whether everything the left entries leave behind has terminated (see `prunable`). */
  private[weft] def leftFibersEnded: Boolean =
    var ended = true
    forEachEntry(e => if ended && !e.isLive && !e.prunable then ended = false)
    ended

  /**
   * Holds a member future that failed before anyone observed its failure, for the check at the
   * join; a failure observed later is dropped, and the unobserved ones held are bounded (see
   * [[FailureLog]]). Only failures allocate here. Called by the future before it leaves.
   */
  private[weft] def failedUnobserved(f: GroupEntry): Unit =
    var log = failures
    if log == null then
      val fresh = FailureLog(HeldFailureLimit, HeldFailureSlack)
      log = if FAILURES.compareAndSet(this, null, fresh) then fresh else failures
    log.nn.add(f)

  /**
   * A member future's own failure that ended after a `cancel()` had already completed the future
   * (so nobody can observe it there): reported at once, never dropped (`LateFailureSuite`). A
   * supervised scope's group attaches it to the scope's failure instead. Called by the future
   * before it leaves.
   */
  private[weft] def failedAfterCancel(e: Throwable): Unit =
    UnobservedFailures.report(e, UnobservedFailures.AfterCancel)

  /** The failures held for the check at the join: for tests. */
  private[weft] def heldFailures: Int =
    val log = failures
    if log == null then 0 else log.size

  /**
   * Reports, to [[UnobservedFailures]], the failures of member futures that nobody awaited,
   * polled or listened to by the time the scope joins them; each once.
   */
  private[weft] def reportUnobserved(): Unit =
    val log = failures
    if log != null then log.reportAll()

  /**
   * Reports what this group and the nested groups that left it joined still hold: for a
   * drained nested group unlinked from its parent before the parent's join walks it.
   */
  private[weft] def reportUnobservedNested(): Unit =
    forEachEntry { e =>
      val g = e.joinedGroup
      if g != null then g.nn.reportUnobservedNested()
    }
    reportUnobserved()

  /**
   * Makes this group a member of `group` (see [[Cancellable.link]]), unless that would close
   * a cycle: `group` is this group or nested in it, however deep. Cancelling and joining a
   * cycle would never end (`GroupFailuresSuite`, "a group linked to itself, or in a cycle").
   *
   * @throws IllegalArgumentException
   *   naming the groups of the cycle, if `group` is this group or one nested in it; nothing is
   *   changed then
   */
  override def link(group: CompletionGroup): this.type =
    var g: CompletionGroup | Null = group
    var path = List.empty[CompletionGroup]
    while g != null do
      path = g.nn :: path
      if g eq this then
        throw IllegalArgumentException(
          s"linking $this to $group would make a cycle of groups: " +
            (this :: path.reverse).map(_.toString).mkString(" -> ")
        )
      g = g.nn.currentGroup
    super.link(group)

/** Factories for [[CompletionGroup]]. */
object CompletionGroup:

  /** A new, empty, uncancelled group. */
  def apply(): CompletionGroup = new CompletionGroup

  /**
   * The group of a nested scope (`Async.group`): it leaves its parent group itself, when the
   * scope's body and join are over, so the parent's join waits for it.
   */
  private[weft] def scoped(): CompletionGroup = new CompletionGroup:
    override private[weft] def leavesWhenDrained: Boolean = false

  private inline val OnePush = 1L << 32

  /** Pushes allowed beyond twice the live members before a pruning. */
  private inline val PruneSlack = 64

  private inline def live(counts: Long): Int = (counts & 0xffffffffL).toInt

  /** Unobserved failures a group holds at most; older ones are reported early. */
  private[weft] inline val HeldFailureLimit = 1024

  /** Failures added beyond those held before the list is swept of observed ones. */
  private[weft] inline val HeldFailureSlack = 64

  /** A fiber waiting for its group to empty: a node of the group's stack of waiters. */
  private final class Waiting(val fiber: Fiber, val next: Waiting | Null):
    @volatile var woken: Boolean = uninitialized

    /** Wakes this waiter and every one below it. */
    def wakeAll(): Unit =
      var w: Waiting | Null = this
      while w != null do
        w.woken = true
        w.fiber.unpark()
        w = w.next

  private def handle(name: String, tpe: Class[?]): VarHandle =
    MethodHandles.privateLookupIn(classOf[CompletionGroup], MethodHandles.lookup())
      .findVarHandle(classOf[CompletionGroup], name, tpe)

  private val HEAD = handle("head", classOf[GroupEntry])
  private val COUNTS = handle("counts", classOf[Long])
  private val WAITERS = handle("waiters", classOf[Waiting])
  private val PRUNING = handle("pruning", classOf[Int])
  private val FAILURES = handle("failures", classOf[FailureLog])
