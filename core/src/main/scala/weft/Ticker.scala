package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import scala.compiletime.uninitialized
import scala.concurrent.duration.FiniteDuration
import weft.runtime.{Clock, Scheduler}
import weft.internal.listeners.ListenerList
import weft.internal.runtime.{Delays, DurationText}

/**
 * A periodic timer: a [[Source]] that offers `true` at every tick, `period` apart, until it is
 * cancelled; then `false`, at once and forever after (as a cancelled [[Timer]]). The one-shot
 * [[Timer]]'s periodic sibling (gears' periodic timer).
 *
 * Tick `k` (1, 2, ...) is due `k * period` after the ticker was created: the schedule does not
 * drift, however late a tick is delivered. A tick is offered to the listeners waiting at that
 * moment: a reader that is busy when a tick fires misses it (an overrun skips ticks, never
 * bursts to catch up); [[ticks]] says how many have fired.
 *
 * The ticker belongs to the scope that created it: it stops when the scope ends (or is
 * cancelled), so it never outlives the code that uses it. [[cancel]] stops it earlier.
 *
 * {{{
 * val ticker = Ticker(1.second)
 * while Async.await(ticker) do report()
 * // or: ticker.values.takeWhile(identity).take(10).foreach(_ => report())
 * }}}
 * @param period
 *   the time between ticks, more than zero
 */
final class Ticker private[weft] (
    val period: FiniteDuration,
    scheduler: Scheduler,
    clock: Clock
) extends OriginalSource[Boolean],
      Cancellable:
  import Ticker.*

  if period == null then throw NullPointerException("Ticker: the period is null")
  if period.length <= 0 then
    throw IllegalArgumentException(s"Ticker: the period must be > 0, got $period")

  private val periodNanos = period.toNanos
  private val startNanos = clock.nanoTime()
  // A `List` of waiting listeners while ticking, `Stopped` once cancelled.
  @volatile private var state: AnyRef = Nil
  @volatile private var handle: Scheduler.Cancel | Null = uninitialized
  @volatile private var fired: Long = 0L

  scheduleTick(1)

  /** The number of ticks fired so far. */
  def ticks: Long = fired

  /** Whether the ticker was cancelled. */
  def isCancelled: Boolean = state eq Stopped

  /**
   * Stops the ticker: no tick fires any more, its scheduler entry is freed, and every listener
   * (waiting now or later) is offered `false`. Idempotent.
   */
  def cancel(): Unit =
    val s = (STATE.getAndSet(this, Stopped): AnyRef)
    if s ne Stopped then
      val h = handle
      if h != null then h.cancel()
      unlink()
      offer(s.asInstanceOf[List[Listener[Boolean]]], false)

  // Tick `k` is due at `start + k * period`, computed from the start, not from the previous
  // tick, so delays do not accumulate (`TickerSuite`, "ticks do not drift: ..."). The handle is
  // published before the state is re-read, and `cancel` sets the state before reading the
  // handle, so whichever runs second cancels the entry: a cancelled ticker leaves none behind.
  // The due offset saturates: with a period of centuries `k * period` overflows a long for
  // k >= 2. A wrapped offset cancels out when the tick before rang on time or late, but after
  // one that rang early by this ticker's clock it is a tick due at once (`TickerSuite`, "a
  // period so long that 2 periods overflow ..."; `BadInputSuite`, "huge delays ..." checks that
  // such a ticker never ticks).
  private def scheduleTick(k: Long): Unit =
    val due =
      try Math.multiplyExact(k, periodNanos)
      catch case _: ArithmeticException => Long.MaxValue
    val delay = math.max(0L, due - (clock.nanoTime() - startNanos))
    val h = scheduler.schedule(delay, () => tick(k))
    handle = h
    if isCancelled then h.cancel(): Unit

  private def tick(k: Long): Unit =
    val s = state
    if (s ne Stopped) && STATE.compareAndSet(this, s, Nil) then
      fired = k
      // the next due tick after now: a late tick skips the ones it overran
      val now = clock.nanoTime()
      val next = math.max(k + 1, (now - startNanos) / periodNanos + 1)
      scheduleTick(next)
      offer(s.asInstanceOf[List[Listener[Boolean]]], true)
    else if s ne Stopped then tick(k) // a listener was added meanwhile: retry the swap

  private def offer(ks: List[Listener[Boolean]], value: Boolean): Unit =
    ks.reverse.foreach: k =>
      try k.completeNow(value, this)
      catch case e: Throwable => weft.runtime.Fiber.reportUncaught(e)

  def poll(k: Listener[Boolean]): Boolean =
    if isCancelled then
      k.completeNow(false, this)
      true
    else false

  protected def addListener(k: Listener[Boolean]): Unit =
    if ListenerList.push(this, STATE, k) != null then k.completeNow(false, this): Unit

  def dropListener(k: Listener[Boolean]): Unit = ListenerList.remove(this, STATE, k)

  /** The number of waiting listeners: for tests and diagnostics. */
  private[weft] def listenerCount: Int = state match
    case ks: List[?] => ks.size
    case _           => 0

  override def toString: String =
    s"Ticker(${DurationText(period)}, ${if isCancelled then "cancelled" else s"$fired ticks"})"

/** Creating tickers. */
object Ticker:

  /** The state of a cancelled ticker. */
  private object Stopped

  /**
   * A ticker of `period` (more than zero), started now and stopped with the current scope.
   * @throws IllegalArgumentException
   *   if `period` is not positive
   */
  def apply(period: FiniteDuration)(using async: Async): Ticker =
    val t = new Ticker(period, async.support.scheduler, async.support.clock)
    t.link(async.group)
    t

  /**
   * As [[apply]], with the period in milliseconds (more than zero). More milliseconds than a
   * `FiniteDuration` holds (about 292 years, e.g. `Long.MaxValue`) make a ticker that never
   * ticks.
   * @throws IllegalArgumentException
   *   if `millis` is not positive
   */
  def apply(millis: Long)(using Async): Ticker =
    if millis <= 0L then
      throw IllegalArgumentException(s"Ticker: the period must be > 0, got $millis ms")
    apply(Delays.millisToDuration(millis, "Ticker: the period"))

  private val STATE: VarHandle =
    MethodHandles
      .privateLookupIn(classOf[Ticker], MethodHandles.lookup())
      .findVarHandle(classOf[Ticker], "state", classOf[AnyRef])
