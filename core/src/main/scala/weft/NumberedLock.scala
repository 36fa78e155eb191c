package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import scala.compiletime.uninitialized
import weft.runtime.Fiber

/**
 * A spin lock with a terminal "completed" state: the lock of one racing listener.
 *
 * State machine: `FREE -> HELD` (acquire), `HELD -> FREE` (release), `HELD -> DONE` (retire, on
 * completion or give-up) or `HELD -> TAKEN` (retire, saying a value was taken: see
 * [[retireTaken]]). Acquire spins while `HELD` (holders never block) and fails at `DONE` and
 * `TAKEN`.
 */
class NumberedLock extends ListenerLock:
  import NumberedLock.*

  @volatile private var state: Int = uninitialized // FREE, the default 0

  // Drawn from the global counter only when a second lock is paired with this one (see
  // `number`): most listeners are completed alone, and never touch that shared counter.
  @volatile private var assigned: Long = uninitialized

  /**
   * This lock's number in the global order, drawn on first use (a CAS from `0` settles a race
   * between two threads asking at once, so a lock never has two numbers).
   */
  def number: Long =
    val n = assigned
    if n != 0L then n
    else
      NUMBER.compareAndSet(this, 0L, ListenerLock.nextNumber())
      assigned

  def acquire(): Boolean = hold()

  /** The spin of [[acquire]], without a subclass's conditions: held (`true`) or done (`false`). */
  private final def hold(): Boolean =
    var spins = 0
    while true do
      val s = state
      if s >= DONE then return false
      if s == FREE && STATE.compareAndSet(this, FREE, HELD) then return true
      Fiber.spinPause(spins)
      spins += 1
    false

  def release(): Unit = state = FREE

  /**
   * Marks the held lock as completed: every later [[acquire]] fails. For the listener that owns
   * the lock (a subclass), at the end of its `complete`.
   */
  protected[weft] def retire(): Unit = state = DONE

  /**
   * [[retire]], recording in the same write that a value was taken: for an owner that must tell
   * a completion from a give-up ([[isTaken]]) without a field of its own.
   */
  protected[weft] final def retireTaken(): Unit = state = TAKEN

  /**
   * Makes the listener owning this lock uncompletable, for a waiter that gives up (it was
   * cancelled or timed out) after dropping its listener from the sources: `true` if this call
   * retired the lock, so no source can complete the listener any more; `false` if a source had
   * already completed it, whose value the caller must then keep or hand back. Spins only while a
   * source holds the lock for its few completing steps. This is the one place that decides the
   * rule "a dropped listener is either completed already or never will be" (ADR 0006); every
   * waiter that owns a lock gives up through it. It bypasses an overridden [[acquire]]: the
   * owner's own give-up is never declined (see [[WaiterLock]]).
   */
  protected[weft] final def retireUnused(): Boolean =
    if hold() then
      retire()
      true
    else false

  /** Whether the listener owning this lock has been completed. */
  protected[weft] def isRetired: Boolean = state >= DONE

  /** Whether the lock was retired by [[retireTaken]]. */
  protected[weft] final def isTaken: Boolean = state == TAKEN

private object NumberedLock:

  /** Must stay 0: a new lock's `state` is left at its default (see [[weft.internal.futures.CoreFuture]]). */
  inline val FREE = 0
  inline val HELD = 1
  inline val DONE = 2
  inline val TAKEN = 3
  val STATE: VarHandle =
    MethodHandles.privateLookupIn(classOf[NumberedLock], MethodHandles.lookup())
      .findVarHandle(classOf[NumberedLock], "state", classOf[Int])
  val NUMBER: VarHandle =
    MethodHandles.privateLookupIn(classOf[NumberedLock], MethodHandles.lookup())
      .findVarHandle(classOf[NumberedLock], "assigned", classOf[Long])
