package weft.resilience

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.atomic.AtomicInteger

/**
 * The fixed-window algorithm of [[RateLimiter.fixedWindow]].
 *
 * The current window is an object with an end instant and an atomic count of the permits given
 * in it. A permit is one CAS of that count while it stays within `maxOps`: the fast path reads no
 * clock (a clock read costs more than the CAS; benchmark `rate-limiter`). Each window arms one
 * timer on the shared scheduler for its end, which marks the count `Expired`; the first caller
 * to find its window expired, or full with its end passed (the timer may ring late), installs the
 * next window, ending `window` from now, by CAS, so two callers cannot both reset the count. The
 * timer holds only the small window object, never the limiter, and a limiter nobody uses arms
 * none: no thread, and nothing pending a window after the last permit.
 *
 * So each window lasts at least `window` (longer by the timer's lateness, while permits are
 * still counted in it) and gives at most `maxOps` permits (`RateLimiterSuite`, "fixed window:
 * ..."); windows are not aligned on a grid but start at the first request after the previous
 * one ended.
 */
private[resilience] final class FixedWindowLimiter(maxOps: Int, window: Long, clock: Clock)
    extends RateLimiter(clock):
  import FixedWindowLimiter.{CURRENT, Expired, Window}
  RateLimiter.atLeastOne(maxOps, "maxOps")

  @volatile private var current: Window = Window.none

  def maxPermits: Int = maxOps

  protected def tryTake(n: Int): Long =
    var w = current
    while true do
      val used = w.get
      if used <= maxOps - n then
        if w.compareAndSet(used, used + n) then return 0L
      else
        val now = clock.nanoTime()
        if used != Expired && now - w.end < 0L then return w.end - now
        val next = Window(now + window)
        if CURRENT.compareAndSet(this, w, next) then
          clock.schedule(window, () => next.set(Expired))
        w = current
    0L // unreachable

  override def toString: String = s"RateLimiter.fixedWindow($maxOps per ${window}ns)"

private[resilience] object FixedWindowLimiter:

  /** The count of a window that is over (above any `maxOps - n`). */
  final val Expired = Int.MaxValue

  /** A window ending at `end` and, as the atomic integer, the permits given in it. */
  final class Window(val end: Long) extends AtomicInteger

  object Window:
    /** The window before the first: already over. */
    def none: Window =
      val w = Window(0L)
      w.set(Expired)
      w

  private val CURRENT: VarHandle =
    MethodHandles.privateLookupIn(classOf[FixedWindowLimiter], MethodHandles.lookup())
      .findVarHandle(classOf[FixedWindowLimiter], "current", classOf[Window])
