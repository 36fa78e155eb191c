package weft.resilience

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.atomic.AtomicInteger

/**
 * The fixed-window algorithm of [[RateLimiter.fixedWindow]].
 *
 * Time is cut into windows `[origin + k * window, origin + (k + 1) * window)`. The current window
 * is one immutable interval with an atomic count of the permits given in it; a permit is one CAS
 * of that count while it stays within `maxOps`. The first call that finds the window over
 * installs the window holding its own instant (one allocation per window, not per permit; a
 * window nobody asked for a permit in is never created), by CAS, so two callers cannot both
 * reset the count.
 *
 * A caller that read the clock just before another installed the next window may find its
 * instant before the window's start: it takes its permit in the new window, which is right, as
 * the permit is given now, in that window. A window therefore never gives more than `maxOps`
 * (`RateLimiterSuite`, "fixed window: never more than maxOps per window, many fibers").
 */
private[resilience] final class FixedWindowLimiter(maxOps: Int, window: Long, clock: Clock)
    extends RateLimiter(clock):
  import FixedWindowLimiter.{CURRENT, Window}
  RateLimiter.atLeastOne(maxOps, "maxOps")

  private val origin = clock.nanoTime()
  @volatile private var current: Window = Window(origin, origin + window)

  def maxPermits: Int = maxOps

  protected def tryTake(n: Int, now: Long): Long =
    var w = current
    while now - w.end >= 0L do
      val start = origin + Math.floorDiv(now - origin, window) * window
      CURRENT.compareAndSet(this, w, Window(start, start + window)): Unit
      w = current
    var used = w.get
    while used <= maxOps - n do
      if w.compareAndSet(used, used + n) then return 0L
      used = w.get
    w.end - now

  override def toString: String = s"RateLimiter.fixedWindow($maxOps per ${window}ns)"

private[resilience] object FixedWindowLimiter:

  /** A window `[start, end)` and, as the atomic integer, the permits given in it. */
  final class Window(val start: Long, val end: Long) extends AtomicInteger

  private val CURRENT: VarHandle =
    MethodHandles.privateLookupIn(classOf[FixedWindowLimiter], MethodHandles.lookup())
      .findVarHandle(classOf[FixedWindowLimiter], "current", classOf[Window])
