package weft
package internal.async

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.CancellationException
import scala.compiletime.uninitialized
import weft.runtime.{AsyncSupport, Fiber, Scheduler}

/**
 * The context of a `withTimeout` block, which runs on the caller's own fiber: the block's
 * [[Async]] and the runner its cancellation acts on. A timer on the shared scheduler runs this
 * region ([[run]]) when the time is up; that cancels the block only, never the caller:
 *   - the region is marked timed out, so the block's waits throw a `CancellationException`
 *     ([[cancellationPending]]), as on a cancel;
 *   - the futures the block started (they are in the region's group, made on the first one and
 *     linked to the caller's group) are cancelled;
 *   - the fiber is interrupted, to wake a wait in progress, but only while it is inside the
 *     region and not inside an `uninterruptible` part of it (the part raises the timeout when
 *     it ends, as a future's cancellation is raised).
 *
 * The caller's future is left as it was: [[close]], at the block's end, waits out an interrupt
 * being delivered (the `INTERRUPTING` handshake of a runnable future) and then clears the one
 * the timer delivered, so that neither the timer firing while the block returns nor an
 * interrupt the block never met reaches the caller's next wait. One the timer delivered and a
 * foreign `Thread.interrupt` arriving together are one interrupt to the thread; the region
 * clears it. The caller's own cancellation stays visible through the outer context's
 * [[cancellationPending]], which the region's includes.
 *
 * One `int` holds the state: `CLOSED` (the block has ended: the timer does nothing any more),
 * `TIMED_OUT`, `INTERRUPTING` (the timer is delivering its interrupt), `INTERRUPTED` (it has
 * delivered one) and the depth of `uninterruptible` parts (own fiber only). `TimeoutSuite`,
 * `TimeoutOnCallerSuite` and `TimeoutRaceSuite` re-check it.
 *
 * @param outer
 *   the caller's context
 */
private[weft] final class TimeoutRegion(outer: Async) extends Async, BodyRunner, Runnable:
  import TimeoutRegion.*

  private val fiber: Fiber = Fiber.current
  @volatile private var state: Int = uninitialized
  @volatile private var children: CompletionGroup | Null = uninitialized
  private var timer: Scheduler.Cancel | Null = uninitialized

  /** Starts the timer: the region times out `nanos` from now unless closed first. */
  def arm(nanos: Long): Unit = timer = outer.support.scheduler.schedule(nanos, this)

  /** The timer's end: marks the region timed out and cancels the block (see the class). */
  def run(): Unit =
    var done = false
    while !done do
      val s = state
      if (s & CLOSED) != 0 then return // the block has ended: its value stands
      if (s >>> DEPTH_SHIFT) > 0 then done = STATE.compareAndSet(this, s, s | TIMED_OUT)
      else if STATE.compareAndSet(this, s, s | TIMED_OUT | INTERRUPTING | INTERRUPTED) then
        fiber.interrupt()
        STATE.getAndBitwiseAnd(this, ~INTERRUPTING)
        done = true
    // After the mark: a group made meanwhile sees it (`makeChildren`) or is seen here.
    val g = children
    if g != null then g.cancel()

  /**
   * Ends the region, on its fiber, once the block has ended: from now on the timer does nothing.
   * Waits out an interrupt being delivered, clears the one delivered, frees the timer, then
   * cancels and joins the futures the block started. `true` if the region had timed out.
   */
  def close(): Boolean =
    var s = state
    var spins = 0
    while (s & INTERRUPTING) != 0 || !STATE.compareAndSet(this, s, s | CLOSED) do
      if (s & INTERRUPTING) != 0 then
        Fiber.spinPause(spins)
        spins += 1
      s = state
    if (s & INTERRUPTED) != 0 then Fiber.interrupted(): Unit
    val t = timer
    if t != null && (s & TIMED_OUT) == 0 then t.cancel(): Unit
    val g = children
    if g != null then
      g.cancel()
      g.waitCompletion()
      g.unlink()
    (s & TIMED_OUT) != 0

  /** The group of the futures the block starts, made on first use and linked to the caller's. */
  def group: CompletionGroup =
    val g = children
    if g != null then g else makeChildren()

  private def makeChildren(): CompletionGroup =
    val fresh = CompletionGroup.scoped()
    if CHILDREN.compareAndSet(this, null, fresh) then
      fresh.link(outer.group)
      // The other half of the pair with `run`: it marks, then reads `children`.
      if (state & (TIMED_OUT | CLOSED)) != 0 then fresh.cancel()
      fresh
    else children.nn

  def withGroup(g: CompletionGroup): Async = AsyncContext(g, this, outer.support)

  def support: AsyncSupport = outer.support

  /**
   * Timed out (outside an `uninterruptible` part), ended (a context that escaped the block), or
   * the caller's own cancellation.
   */
  def cancellationPending: Boolean =
    val s = state
    ((s & CLOSED) != 0 || ((s & TIMED_OUT) != 0 && (s >>> DEPTH_SHIFT) == 0)) ||
    outer.cancellationPending

  def inUninterruptible: Boolean = (state >>> DEPTH_SHIFT) > 0

  /** Whether the time is up (the timer has run before the block ended): for tests. */
  private[weft] def timedOut: Boolean = (state & TIMED_OUT) != 0

  def runsOnCurrentFiber: Boolean = fiber.isCurrent && (state & CLOSED) == 0

  def childScope: CompletionGroup | Null = children

  private[weft] def runnerOnCurrentFiber: BodyRunner | Null =
    if runsOnCurrentFiber then this
    else
      val g = children
      if g == null then null else BodyRunner.onCurrentFiberIn(g)

  /**
   * The timer's own interrupt is never absorbed: a `withTimeout` inside a root scope's
   * `uninterruptible` still ends on its timer. Any other goes to the caller's rule.
   */
  override private[weft] def absorbsInterrupt: Boolean =
    val s = state
    if (s & TIMED_OUT) != 0 && (s >>> DEPTH_SHIFT) == 0 then false else outer.absorbsInterrupt

  /**
   * Runs `block` with the timeout deferred, and the caller's cancellation too (the caller's
   * runner defers it, one level out). Entering waits out an interrupt being delivered and
   * clears one already delivered, which would otherwise end the block's first wait. When the
   * outermost part ends after the time was up, the timeout is raised as a
   * `CancellationException`; a part that throws keeps its own exception.
   */
  def uninterruptibly[R](block: => R): R =
    var spins = 0
    var entered = false
    while !entered do
      val s = state
      if (s & INTERRUPTING) != 0 then
        Fiber.spinPause(spins)
        spins += 1
      else if STATE.compareAndSet(this, s, (s & ~INTERRUPTED) + DEPTH_UNIT) then
        entered = true
        if (s & INTERRUPTED) != 0 then Fiber.interrupted(): Unit
    val r = outer.runnerOnCurrentFiber
    val result =
      try if r == null then block else r.uninterruptibly(block)
      catch
        case e: Throwable =>
          STATE.getAndAdd(this, -DEPTH_UNIT): Unit
          throw e
    val before: Int = STATE.getAndAdd(this, -DEPTH_UNIT)
    val after = before - DEPTH_UNIT
    if (after & TIMED_OUT) != 0 && (after >>> DEPTH_SHIFT) == 0 then
      throw CancellationException("the time limit was reached during an uninterruptible block")
    result

private[weft] object TimeoutRegion:
  inline val CLOSED = 1
  inline val TIMED_OUT = 2
  inline val INTERRUPTING = 4
  inline val INTERRUPTED = 8
  inline val DEPTH_SHIFT = 4
  inline val DEPTH_UNIT = 16

  private val STATE: VarHandle =
    MethodHandles.privateLookupIn(classOf[TimeoutRegion], MethodHandles.lookup())
      .findVarHandle(classOf[TimeoutRegion], "state", classOf[Int])

  private val CHILDREN: VarHandle =
    MethodHandles.privateLookupIn(classOf[TimeoutRegion], MethodHandles.lookup())
      .findVarHandle(classOf[TimeoutRegion], "children", classOf[CompletionGroup])
