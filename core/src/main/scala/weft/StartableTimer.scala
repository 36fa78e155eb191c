package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import scala.annotation.tailrec
import scala.compiletime.uninitialized
import scala.concurrent.duration.FiniteDuration
import weft.runtime.{AsyncSupport, Scheduler}
import weft.internal.listeners.ListenerList
import weft.internal.runtime.Delays

/**
 * A one-shot timer that starts counting when [[start]] is called; a [[Source]] of [[TimerRang]].
 * Most code wants [[Timer]], which starts at once, or [[sleep]] and [[withTimeout]], which
 * manage their timer themselves.
 *
 * After [[start]], the timer rings once `duration` has elapsed and offers `true` to every
 * listener, then and forever after (like a completed future). [[cancel]] before it rings makes it
 * offer `false` instead and frees its entry in the timer queue at once. Either outcome is final.
 * No thread is used per timer: all timers share one scheduler thread.
 *
 * @param duration
 *   the delay, at least zero
 */
class StartableTimer private[weft] (val duration: FiniteDuration, scheduler: Scheduler)
    extends OriginalSource[TimerRang],
      Cancellable:
  import StartableTimer.*

  // One volatile field, changed by compare-and-set: a `List` of waiting listeners while
  // pending, or a `java.lang.Boolean` once rung or cancelled. Ringing and cancelling race by
  // CAS; the winner offers its value to the listeners of the list it replaced. `start` schedules
  // one task on the single timer thread of `weft.runtime` (a heap of delayed tasks), publishes
  // the scheduler handle and then re-reads the state, while `cancel` sets the state and then
  // reads the handle, so whichever runs second cancels the scheduled task: a cancelled timer
  // never stays in the scheduler.

  Delays.checkDelay(duration, "Timer: the delay")

  /** A timer of `duration` (at least zero), on the scheduler of the current fiber (`AsyncSupport.current`). */
  def this(duration: FiniteDuration) = this(duration, AsyncSupport.current.scheduler)

  /**
   * A timer of `millis` milliseconds (at least zero), on the scheduler of the current fiber (`AsyncSupport.current`); more than a
   * `FiniteDuration` holds (about 292 years, e.g. `Long.MaxValue`) is a timer that never rings.
   */
  def this(millis: Long) = this(Delays.millisToDuration(millis, "Timer: the delay"))

  @volatile private var state: AnyRef = Nil
  @volatile private var handle: Scheduler.Cancel | Null = uninitialized
  @volatile private var started: Boolean = uninitialized

  /** The delay in whole milliseconds. */
  def millis: Long = duration.toMillis

  /**
   * Starts counting `duration` from now. A cancelled timer stays cancelled (this does nothing).
   * @throws java.lang.IllegalStateException
   *   if the timer was already started
   */
  def start(): Unit =
    if !STARTED.compareAndSet(this, false, true) then
      throw IllegalStateException("this timer was already started")
    if !isDone then
      val h = scheduler.schedule(duration.toNanos, () => finish(true))
      handle = h
      if isDone then h.cancel()

  /** Whether the timer has rung or been cancelled. */
  def isDone: Boolean = state.isInstanceOf[java.lang.Boolean]

  /**
   * Cancels the timer if it has not rung: it then offers `false`, and its scheduler entry is
   * freed. Does nothing on a timer that has already rung.
   */
  def cancel(): Unit =
    if finish(false) then
      val h = handle
      if h != null then h.cancel()

  /** Sets the outcome if still pending and offers it to the waiting listeners. */
  @tailrec
  private def finish(rang: Boolean): Boolean = state match
    case _: java.lang.Boolean => false
    case s =>
      if STATE.compareAndSet(this, s, java.lang.Boolean.valueOf(rang)) then
        s.asInstanceOf[List[Listener[TimerRang]]].reverse.foreach: k =>
          try k.completeNow(rang, this)
          catch case e: Throwable => weft.runtime.Fiber.reportUncaught(e)
        true
      else finish(rang)

  def poll(k: Listener[TimerRang]): Boolean = state match
    case b: java.lang.Boolean =>
      k.completeNow(b.booleanValue, this)
      true
    case _ => false

  protected final def addListener(k: Listener[TimerRang]): Unit =
    ListenerList.push(this, STATE, k) match
      case b: java.lang.Boolean => k.completeNow(b.booleanValue, this): Unit
      case _                    => ()

  final def dropListener(k: Listener[TimerRang]): Unit = ListenerList.remove(this, STATE, k)

  /** The number of registered listeners (0 once done): for tests and diagnostics. */
  private[weft] def listenerCount: Int = state match
    case ks: List[?] => ks.size
    case _           => 0

  override def toString: String = state match
    case b: java.lang.Boolean => s"Timer($duration, ${if b then "rang" else "cancelled"})"
    case _ => s"Timer($duration, ${if started then "ticking" else "not started"})"

/** Helpers of [[StartableTimer]]. */
object StartableTimer:
  private val lookup =
    MethodHandles.privateLookupIn(classOf[StartableTimer], MethodHandles.lookup())
  private val STATE: VarHandle =
    lookup.findVarHandle(classOf[StartableTimer], "state", classOf[AnyRef])
  private val STARTED: VarHandle =
    lookup.findVarHandle(classOf[StartableTimer], "started", classOf[Boolean])
