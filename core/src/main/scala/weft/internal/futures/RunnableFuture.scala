package weft
package internal.futures

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.CancellationException
import scala.compiletime.uninitialized
import scala.util.{Failure, Success, Try}
import weft.runtime.{AsyncSupport, Fiber}
import weft.internal.async.{AsyncContext, BodyRunner, GroupEntry}

/**
 * A future whose value is computed by `body` on its own fiber (`Future { body }`).
 *
 * ==Lifecycle==
 * `start` links the future to the current scope's group and starts its fiber. The fiber runs
 * `body` with the future itself as its [[Async]] context, whose group (the children's) is made
 * on the first child only; when `body` ends the children are cancelled and joined, then the
 * future completes with `body`'s result (if a cancel completed it meanwhile, a failure of the
 * body's own goes to its group's `failedAfterCancel` instead of vanishing; an unobserved
 * failure is held by the group it belongs to then, or reported at once if it belongs to none),
 * and finally it leaves the group it belongs to then, which joins the fiber at the end of the
 * scope (the group it was started in, unless it was moved: see [[Cancellable.link]]). A spawn
 * so allocates no context and, for a future without children, no group (the memory-pending
 * workloads and `future-spawn-await` re-check it).
 *
 * ==Cancellation==
 * One CAS-updated int holds the cancellation state: `CANCEL` (requested), `INTERRUPTING` (an
 * interrupt is being delivered) and the `uninterruptible` nesting depth (own fiber only).
 * `cancel` completes the future at once, cancels the children, and interrupts the fiber only at
 * depth 0; at depth > 0 the interrupt is withheld and `uninterruptible` raises the cancellation
 * when the outermost block ends. Entering a block waits out an interrupt being delivered and
 * then clears it, so an interrupt can never land inside an uninterruptible block.
 */
private[weft] final class RunnableFuture[T](body: Async ?=> T, parent: Async)
    extends CoreFuture[T],
      BodyRunner,
      Async,
      GroupEntry,
      Runnable:
  import RunnableFuture.*

  // The children's group: null until the first child (or `group` call), then fixed; the shared
  // `Ended` group once the body has ended without one.
  @volatile private var children: CompletionGroup | Null = uninitialized
  @volatile private var fiber: Fiber | Null = uninitialized
  @volatile private var cancelState: Int = uninitialized

  // Its own entry in the group it is started in (see `GroupEntry`): UNUSED, LIVE, LEFT, EXITED,
  // with the OBSERVED and FINISHED bits beside.
  @volatile private var entryState: Int = uninitialized
  @volatile var entryNext: GroupEntry | Null = uninitialized

  def childScope: CompletionGroup | Null = children

  override private[weft] def entryFor(group: CompletionGroup): GroupEntry =
    if (group eq parent.group) && ENTRY.compareAndSet(this, GroupEntry.UNUSED, GroupEntry.LIVE)
    then this
    else GroupEntry.Boxed(this, group)

  def member: Cancellable = this
  def entryGroup: CompletionGroup = parent.group
  def isLive: Boolean = (entryState & EntryMask) == GroupEntry.LIVE
  // Only once it left joined: a future moved away (`link`, `unlink`) is no longer joined here.
  def exitingFiber: Fiber | Null =
    if (entryState & EntryMask) == GroupEntry.EXITED then fiber else null
  def tryLeave(f: Fiber | Null, joined: Boolean): Boolean =
    val target = if joined then GroupEntry.EXITED else GroupEntry.LEFT
    var s = entryState
    while (s & EntryMask) == GroupEntry.LIVE do
      if ENTRY.compareAndSet(this, s, (s & ~EntryMask) | target) then return true
      s = entryState
    false

  override private[weft] def finishedFiber: Fiber | Null =
    if (entryState & FINISHED) != 0 then fiber else null

  // The mark is a bit of the entry's state: no field of its own (the fiber is `fiber`).
  override private[weft] def markFinished(self: Fiber): Unit =
    ENTRY.getAndBitwiseOr(this, FINISHED): Unit

  // The OBSERVED bit beside the entry's state: set once the failure was handed to anyone.
  override private[weft] def failureObserved(): Unit =
    if (entryState & OBSERVED) == 0 then ENTRY.getAndBitwiseOr(this, OBSERVED): Unit

  /** Whether this future's failure was handed to anyone (see [[UnobservedFailures]]). */
  private[weft] def failureWasObserved: Boolean = (entryState & OBSERVED) != 0

  override def unobservedFailure: Throwable | Null =
    if failureWasObserved || !isDone then null
    else
      resultNow match
        case Failure(e) if !e.isInstanceOf[CancellationException] => e
        case _                                                    => null

  /** The group of the futures the body starts, made on first use. */
  def group: CompletionGroup =
    val g = children
    if g != null then g else makeChildren()

  /**
   * Publishes a new children's group, then checks for a cancellation that came first: a
   * `cancel` sets its flag and then reads `children`, so one of the two sees the other and the
   * new group is cancelled (`CancellationSuite` re-checks children started while cancelled).
   */
  private def makeChildren(): CompletionGroup =
    val fresh = CompletionGroup()
    if CHILDREN.compareAndSet(this, null, fresh) then
      if (cancelState & CANCEL) != 0 then fresh.cancel()
      fresh
    else children.nn

  def withGroup(g: CompletionGroup): Async = AsyncContext(g, this, parent.support)

  def support: AsyncSupport = parent.support

  /** See [[AsyncContext.runnerOnCurrentFiber]], of which this is the same search. */
  private[weft] def runnerOnCurrentFiber: BodyRunner | Null =
    if runsOnCurrentFiber then this
    else
      val g = children
      if g == null then null else BodyRunner.onCurrentFiberIn(g)

  /** Whether this future's body runs on the calling fiber. */
  def runsOnCurrentFiber: Boolean =
    val f = fiber
    f != null && f.nn.isCurrent

  /** Its fiber leaves the group at the end of `run`: a scope's join waits for it. */
  override private[weft] def leavesByItself: Boolean = true

  /**
   * Whether cancellation has been requested and is not deferred: for the future, and for its
   * body's context, also once the body has ended (its children's group is then cancelled).
   */
  def cancellationPending: Boolean =
    val s = cancelState
    if (s >>> DEPTH_SHIFT) != 0 then false
    else if (s & CANCEL) != 0 then true
    else
      val g = children
      g != null && g.isCancelled

  /** Whether the own fiber is inside an `uninterruptible` block. */
  def inUninterruptible: Boolean = (cancelState >>> DEPTH_SHIFT) > 0

  def run(): Unit =
    val self = Fiber.current
    fiber = self
    val result: Try[T] =
      if (cancelState & CANCEL) != 0 then Failure(CancellationException("future was cancelled"))
      else
        try Success(body(using this))
        catch case e: Throwable => Failure(e)
    endChildren()
    // Before leaving, the failure bookkeeping: the scope's join, which ends after the leave,
    // then sees it. A failure is the group's the future belongs to now, not the one it was
    // started in: a moved future is its new group's to join and to report (`GroupFailuresSuite`,
    // "a moved future's failure is reported at its new scope's join").
    val owner = currentGroup
    if !tryComplete(result) then
      // A cancel completed the future first: a failure of the body's own must not vanish with
      // the result it would have been (`LateFailureSuite`).
      result match
        case Failure(e) if !provokedByCancel(e) =>
          (if owner != null then owner else parent.group).failedAfterCancel(e)
        case _ => ()
    else
      val failure = unobservedFailure
      if failure != null then
        // A reported fork has no result anyone can read: its failure is reported now, on its
        // own thread (`ForkReportedSuite`), never held to its scope's end.
        if (entryState & REPORTED) != 0 then
          UnobservedFailures.report(failure, UnobservedFailures.ReportedFork)
        else if owner != null then owner.failedUnobserved(this)
        // Unlinked: no join will ever report it, so it is reported now (`GroupFailuresSuite`,
        // "an unlinked future's unobserved failure is reported at once"). A future never
        // linked (a keyed task's run) hands its result to its runner instead.
        else if (entryState & EntryMask) != GroupEntry.UNUSED then
          UnobservedFailures.report(failure, UnobservedFailures.Unlinked)
    leaveFinished(self)

  /**
   * Cancels and joins the children, or, if the body started none, seals the slot with the
   * cancelled `Ended` group: a context that escaped the body can still start futures, which are
   * then cancelled at once, as in any ended scope.
   */
  private def endChildren(): Unit =
    if !CHILDREN.compareAndSet(this, null, Ended) then
      val g = children.nn
      if g ne Ended then
        g.cancel()
        g.waitCompletion()

  override def cancel(): Unit =
    tryComplete(Failure(CancellationException("future was cancelled")))
    requestInterrupt() // sets CANCEL first: see `makeChildren`
    val g = children
    if g != null && (g ne Ended) then g.cancel()

  private def requestInterrupt(): Unit =
    while true do
      val s = cancelState
      if (s & CANCEL) != 0 then return
      if (s >>> DEPTH_SHIFT) > 0 then
        if STATE.compareAndSet(this, s, s | CANCEL) then return
      else if STATE.compareAndSet(this, s, s | CANCEL | INTERRUPTING) then
        val f = fiber
        if f != null then f.nn.interrupt()
        STATE.getAndBitwiseAnd(this, ~INTERRUPTING)
        return

  /** Runs `block` with cancellation deferred (see the class comment). Own fiber only. */
  def uninterruptibly[R](block: => R): R =
    var spins = 0
    var entered = false
    while !entered do
      val s = cancelState
      if (s & INTERRUPTING) != 0 then
        Fiber.spinPause(spins)
        spins += 1
      else if STATE.compareAndSet(this, s, s + DEPTH_UNIT) then
        entered = true
        if (s & CANCEL) != 0 && (s >>> DEPTH_SHIFT) == 0 then Fiber.interrupted()
    val result =
      try block
      catch
        case e: Throwable =>
          // The block's own failure goes on, not replaced by the deferred cancellation (which
          // would drop it: `LateFailureSuite`, "a block that throws while cancelled"); the
          // cancellation is raised at the next interruption point instead.
          if leaveUninterruptible() then Fiber.selfInterrupt()
          throw e
    if leaveUninterruptible() then
      throw CancellationException("future was cancelled during an uninterruptible block")
    result

  /** Leaves one `uninterruptible` level: `true` if a cancellation is now due. */
  private def leaveUninterruptible(): Boolean =
    val before: Int = STATE.getAndAdd(this, -DEPTH_UNIT)
    val after = before - DEPTH_UNIT
    (after & CANCEL) != 0 && (after >>> DEPTH_SHIFT) == 0

private[weft] object RunnableFuture:
  inline val CANCEL = 1
  inline val INTERRUPTING = 2
  inline val DEPTH_SHIFT = 2
  inline val DEPTH_UNIT = 4

  /** The entry's own state (`GroupEntry.UNUSED`, `LIVE`, `LEFT`) in `entryState`. */
  inline val EntryMask = 3

  /** Set in `entryState` once the future's failure was handed to anyone. */
  inline val OBSERVED = 4

  /** Set in `entryState` by the fiber at its very end, before it leaves its group. */
  inline val FINISHED = 8

  /** Set in `entryState` of a future started by [[startReported]]. */
  inline val REPORTED = 16

  val STATE: VarHandle =
    MethodHandles.privateLookupIn(classOf[RunnableFuture[?]], MethodHandles.lookup())
      .findVarHandle(classOf[RunnableFuture[?]], "cancelState", classOf[Int])

  private val ENTRY: VarHandle =
    MethodHandles.privateLookupIn(classOf[RunnableFuture[?]], MethodHandles.lookup())
      .findVarHandle(classOf[RunnableFuture[?]], "entryState", classOf[Int])

  private val CHILDREN: VarHandle =
    MethodHandles.privateLookupIn(classOf[RunnableFuture[?]], MethodHandles.lookup())
      .findVarHandle(classOf[RunnableFuture[?]], "children", classOf[CompletionGroup])

  /**
   * The children's group of every future whose body ended without starting a child: cancelled,
   * so a future started later through an escaped context is cancelled at once.
   */
  private val Ended: CompletionGroup =
    val g = CompletionGroup()
    g.cancel()
    g

  /**
   * Whether `e` is what a cancellation makes a body throw: the `CancellationException` itself,
   * an interrupt (`InterruptedException`, an interrupted IO call), or an exception caused by one
   * (a body that wraps what it caught). Such a failure ending after the cancel is not reported.
   */
  def provokedByCancel(e: Throwable): Boolean =
    var t: Throwable | Null = e
    var depth = 0
    while t != null && depth < 16 do
      t match
        case _: CancellationException | _: InterruptedException |
            _: java.io.InterruptedIOException |
            _: java.nio.channels.ClosedByInterruptException =>
          return true
        case _ => ()
      val cause = t.nn.getCause
      t = if cause eq t then null else cause
      depth += 1
    false

  /** Creates the future, links it to `async`'s group, and starts its fiber. */
  def start[T](body: Async ?=> T, async: Async): RunnableFuture[T] =
    val f = RunnableFuture(body, async)
    f.link(async.group)
    async.support.start(f)
    f

  /**
   * As [[start]], for a future whose failure is reported when it happens rather than held for
   * its group's join ([[forkReported]]). The mark is set after the link, whose claim of the
   * future's own entry expects the entry's state to be exactly `UNUSED`, and before the fiber
   * starts, so the body's end always sees it.
   */
  def startReported(body: Async ?=> Unit, async: Async): RunnableFuture[Unit] =
    val f = RunnableFuture(body, async)
    f.link(async.group)
    ENTRY.getAndBitwiseOr(f, REPORTED): Unit
    async.support.start(f)
    f
