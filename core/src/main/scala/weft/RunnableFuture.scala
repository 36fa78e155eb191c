package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.CancellationException
import scala.compiletime.uninitialized
import scala.util.{Failure, Success, Try}
import weft.runtime.Fiber

/**
 * A future whose value is computed by `body` on its own fiber (`Future { body }`).
 *
 * ==Lifecycle==
 * `start` links the future to the current scope's group and starts its fiber. The fiber runs
 * `body` under a fresh child group; when `body` ends the children are cancelled and joined,
 * then the future completes with `body`'s result (ignored if it was cancelled meanwhile), and
 * finally it leaves the parent group, which joins the fiber at the end of the scope.
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
      Runner,
      Runnable:
  import RunnableFuture.*

  private val children = CompletionGroup()

  def childScope: CompletionGroup = children
  @volatile private var fiber: Fiber | Null = uninitialized
  @volatile private var cancelState: Int = uninitialized

  /** Whether the fiber has been started and has not terminated yet. */
  private[weft] def fiberRunning: Boolean =
    val f = fiber
    f == null || f.nn.isAlive

  /** Whether this future's body runs on the calling fiber. */
  def runsOnCurrentFiber: Boolean =
    val f = fiber
    f != null && f.nn.isCurrent

  /** Its fiber leaves the group at the end of `run`: a scope's join waits for it. */
  override private[weft] def leavesByItself: Boolean = true

  /** Whether cancellation has been requested (deferred or not). */
  def cancellationPending: Boolean =
    val s = cancelState
    (s & CANCEL) != 0 && (s >>> DEPTH_SHIFT) == 0

  /** Whether the own fiber is inside an `uninterruptible` block. */
  def inUninterruptible: Boolean = (cancelState >>> DEPTH_SHIFT) > 0

  def run(): Unit =
    val self = Fiber.current
    fiber = self
    val result: Try[T] =
      if (cancelState & CANCEL) != 0 then Failure(CancellationException("future was cancelled"))
      else
        try Success(body(using JvmAsync(children, this, parent.support)))
        catch case e: Throwable => Failure(e)
    children.cancel()
    children.waitCompletion()
    tryComplete(result)
    unlinkExiting(self)

  override def cancel(): Unit =
    tryComplete(Failure(CancellationException("future was cancelled")))
    children.cancel()
    requestInterrupt()

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
      finally
        val before: Int = STATE.getAndAdd(this, -DEPTH_UNIT)
        val after = before - DEPTH_UNIT
        if (after & CANCEL) != 0 && (after >>> DEPTH_SHIFT) == 0 then
          throw CancellationException("future was cancelled during an uninterruptible block")
    result

private[weft] object RunnableFuture:
  inline val CANCEL = 1
  inline val INTERRUPTING = 2
  inline val DEPTH_SHIFT = 2
  inline val DEPTH_UNIT = 4

  val STATE: VarHandle =
    MethodHandles.privateLookupIn(classOf[RunnableFuture[?]], MethodHandles.lookup())
      .findVarHandle(classOf[RunnableFuture[?]], "cancelState", classOf[Int])

  /** Creates the future, links it to `async`'s group, and starts its fiber. */
  def start[T](body: Async ?=> T, async: Async): RunnableFuture[T] =
    val f = RunnableFuture(body, async)
    f.link(async.group)
    async.support.start(f)
    f
