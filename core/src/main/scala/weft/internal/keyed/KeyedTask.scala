package weft
package internal.keyed

import weft.keyed.*

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.CancellationException
import scala.compiletime.uninitialized
import scala.util.Failure
import weft.Async
import weft.runtime.Fiber
import weft.internal.futures.{CoreFuture, RunnableFuture}

/**
 * One task of a [[Sequentially]]: its body, and the future of its result (the task IS the
 * future, to save an allocation), and a link in its key's queue ([[Lane]]).
 *
 * ==The key's entry==
 * The task that finds its key idle becomes the key's ''entry'' in the key map ([[KeyTable]]):
 * it carries its key and the key's spread hash, and `lane` says what follows it:
 *   - `null`: nothing; the entry is its key's only task (queued or running). A key that never
 *     has two tasks in flight at once thus costs one object per task, and no [[Lane]];
 *   - a [[Lane]]: a second task came while this one was in flight; the lane queues the key's
 *     later tasks and counts this one as its running task (see [[Lane]]);
 *   - [[Lane.Dead]]: the entry finished alone; the key is idle and the entry is dead.
 * The runner of a lone entry and the producer of the key's second task race by CAS on `lane`
 * (`null -> Dead` in [[retireAlone]], `null -> lane` in [[attach]]): exactly one wins, so either
 * the key retires or the runner goes on with the lane. An entry is dead once `lane` is dead
 * (`Dead`, or a lane that retired): lookups skip it, and the next task of its key replaces it.
 *
 * ==Run and cancel==
 * One CAS-updated int holds the task's state:
 *   - `PENDING` -> `RUNNING`: the key's drainer starts the body ([[runOn]]);
 *   - `PENDING` -> `CANCELLING` -> `DONE`: [[cancel]] before it ran. The canceller completes
 *     the future between the two steps; the drainer, whose `PENDING -> RUNNING` CAS failed,
 *     waits out `CANCELLING`, so the key's next task starts only after this future completed;
 *   - `RUNNING` -> `DONE`: the body ended; the future completes with its result;
 *   - `RUNNING` -> `CANCELLING` -> `DONE`: [[cancel]] while running. The canceller completes
 *     the future with a `CancellationException`, cancels the body's run (its scope, and its
 *     fiber's interrupt, deferred while the body is inside `uninterruptible`) and only then
 *     writes `DONE`. The drainer, whose own `RUNNING -> DONE` CAS failed, waits out
 *     `CANCELLING` and clears its interrupt status, so the interrupt meant for this task never
 *     reaches the next task that fiber runs.
 *
 * ==The body's run==
 * The body runs on the drainer's fiber inside a [[weft.internal.futures.RunnableFuture]] that is run in place
 * (no fiber of its own): its context is that of a future's body, so futures the body starts are
 * cancelled and joined when it ends, cancelling the task cancels them too, and `uninterruptible`
 * defers the task's cancellation exactly as in a future (a `Resource` release completes; see
 * `SequentiallyCancelSuite`, "Resource release is uninterruptible").
 *
 * ==Interrupt status==
 * A worker fiber runs task after task, so it clears its interrupt status before each one, as
 * `ThreadPoolExecutor` does: a body that interrupted itself and returned must not fail the next
 * task. It clears it before the `PENDING -> RUNNING` CAS: a canceller interrupts only after its
 * own CAS from `RUNNING`, so an interrupt meant for this task is never the one cleared. It
 * clears it again once the task is `DONE` (no canceller can interrupt it any more): a worker
 * going idle with its status set would find every park returning at once and spin.
 *
 * @param body
 *   the task's code (cleared once it ran or was cancelled)
 * @param key
 *   the task's key
 * @param hash
 *   the key's spread hash code ([[KeyTable.spread]]), computed once by the submitter
 */
private[weft] final class KeyedTask[T](
    private var body: Async ?=> T,
    val key: Any,
    val hash: Int
) extends CoreFuture[T], ReadyWork:
  import KeyedTask.*

  /** As the key's entry: what follows this task (see "The key's entry"). */
  @volatile private[weft] var lane: Lane | Null = uninitialized

  /** The next dead entry on the way out of the key map (see [[DeadEntries]]). */
  private[weft] var nextRetired: KeyedTask[?] | Null = uninitialized

  /** The next task of the same key (written by the producer that enqueues it). */
  @volatile private[weft] var next: KeyedTask[?] | Null = uninitialized

  @volatile private var state: Int = uninitialized // PENDING, the default 0
  // A plain field (see "Run and cancel"): written before the CAS that starts the body and read
  // by a canceller only after its own CAS from `RUNNING`, which orders them.
  private var bodyRun: RunnableFuture[T] | Null = uninitialized

  /** Whether this entry is dead: it finished alone, or its lane retired. */
  def isDead: Boolean =
    val l = lane
    l != null && l.isRetired

  /**
   * Called by the runner of a lone entry after it: retires the key unless a lane came meanwhile
   * (see above); returns whether it retired.
   */
  def retireAlone(): Boolean = LANE.compareAndSet(this, null, Lane.Dead)

  /**
   * Called by the baton holder once this entry has run: retires the key ([[retireAlone]]), or
   * settles the entry in the lane that came meanwhile ([[Lane.finishOne]]). Returns that lane
   * if it holds more tasks (the caller keeps the baton and runs them or hands them on), or
   * `null` if the key went idle (the entry is dead; the caller sees to its removal).
   */
  def afterRun(): Lane | Null =
    if retireAlone() then null
    else
      val l = lane.nn
      if l.finishOne() then null else l

  /** Attaches `l` (holding the key's second task) to this lone entry; `false` if it has one. */
  def attach(l: Lane): Boolean = LANE.compareAndSet(this, null, l)

  /**
   * Runs the body on the current fiber, unless the task was cancelled, and completes the
   * future. Never throws: the body's exception becomes the future's `Failure`, or, if a cancel
   * completed the future first, goes to the owner's scope (`failedAfterCancel`: reported to
   * `UnobservedFailures`, or attached to a failing supervised scope's failure).
   *
   * @param owner
   *   the context of the executor's owner: the parent of the body's run (see "The body's run")
   */
  def runOn(owner: Async): Unit =
    Fiber.interrupted() // a previous task's leftover (see "Interrupt status")
    val r = RunnableFuture[T](body, owner)
    bodyRun = r
    if STATE.compareAndSet(this, PENDING, RUNNING) then
      r.run() // the body, then its children cancelled and joined
      body = cleared
      if STATE.compareAndSet(this, RUNNING, DONE) then tryComplete(r.resultNow)
      else
        awaitCancelled()
        // The cancel won after the run had completed with the body's own failure, which the
        // task's cancelled future no longer carries: it goes to the owner's scope instead of
        // vanishing (`SequentiallyLateFailureSuite`). A cancel that came earlier completed the
        // run with the cancellation, and the run itself saw to a later failure of the body.
        r.resultNow match
          case Failure(e) if !RunnableFuture.provokedByCancel(e) =>
            owner.group.failedAfterCancel(e)
          case _ => ()
      Fiber.interrupted() // this task's own interrupt, or one its body left (see above)
    else awaitCancelled()
    bodyRun = null

  /**
   * Cancels the task: if still pending it will never run; if running, its body is interrupted
   * and its scope cancelled. Either way the future completes now with a
   * `CancellationException`. The key's later tasks still run.
   */
  override def cancel(): Unit =
    var done = false
    while !done do
      state match
        case PENDING =>
          done = cancelIfPending()
        case RUNNING =>
          if STATE.compareAndSet(this, RUNNING, CANCELLING) then
            tryComplete(Failure(CancellationException("task cancelled while running")))
            val r = bodyRun
            if r != null then r.cancel()
            state = DONE
            done = true
        case _ => done = true

  /** Waits out a canceller between its CAS and `DONE` (a few instructions). */
  private def awaitCancelled(): Unit =
    var spins = 0
    while state == CANCELLING do
      Fiber.spinPause(spins)
      spins += 1

  /**
   * Called by the key's drainer instead of [[runOn]] once the executor is shut down: the task
   * does not run; it completes with a `CancellationException` unless it already completed.
   * Waits out a concurrent canceller, like [[runOn]].
   */
  def discard(): Unit =
    if !cancelIfPending() then awaitCancelled()

  /** Cancels the task only if it has not started; returns whether it did. */
  def cancelIfPending(): Boolean =
    if STATE.compareAndSet(this, PENDING, CANCELLING) then
      body = cleared
      tryComplete(Failure(CancellationException("pending task cancelled")))
      state = DONE
      true
    else false

private[weft] object KeyedTask:

  /** Must stay 0: a new task's `state` is left at its default (see [[weft.internal.futures.CoreFuture]]). */
  inline val PENDING = 0
  inline val RUNNING = 1
  inline val CANCELLING = 2
  inline val DONE = 3

  /**
   * The entry of a `run` that executes its body inline on the caller's fiber: it holds the key
   * while the body runs and is never run itself (it is `DONE` from the start, so cancelling it
   * does nothing).
   */
  def inlineEntry(key: Any, hash: Int): KeyedTask[Unit] =
    val t = KeyedTask[Unit](cleared, key, hash)
    STATE.set(t, DONE)
    t

  /** Replaces a body that ran or was cancelled, so that it can be collected. */
  val cleared: Async ?=> Nothing =
    throw IllegalStateException("a Sequentially task body ran twice")

  private val lookup = MethodHandles.privateLookupIn(classOf[KeyedTask[?]], MethodHandles.lookup())
  val STATE: VarHandle = lookup.findVarHandle(classOf[KeyedTask[?]], "state", classOf[Int])

  /** The `next` link, written with release stores (see "Fences" in [[Lane]]). */
  val NEXT: VarHandle = lookup.findVarHandle(classOf[KeyedTask[?]], "next", classOf[KeyedTask[?]])

  private val LANE: VarHandle = lookup.findVarHandle(classOf[KeyedTask[?]], "lane", classOf[Lane])
