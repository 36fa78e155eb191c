package weft.resilience

import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.locks.ReentrantLock

/**
 * The fixed-window algorithm of [[RateLimiter.fixedWindow]].
 *
 * The current window is an object with an end instant and an atomic count of the permits given
 * in it. A permit is one CAS of that count while it stays within `maxOps`: the fast path reads no
 * clock (a clock read costs more than the CAS; benchmark `rate-limiter`). A refusal reads the
 * clock without a lock: a count read as full, then a clock read before the end, means the window
 * was full and not over at the count read, since time only moves on.
 *
 * Turning a window (the count is `Expired`, or full with its end passed) happens under a lock,
 * in this order: freeze the count (CAS to `Frozen`, so no fast-path permit can be taken from it
 * any more), read the clock, then decide: either install the next window, ending `window` after
 * THAT read and already holding the installer's permits, or unfreeze and refuse. Nothing can
 * change between the clock read and the install, so the read is the moment the whole request
 * happened, and every outcome is one that the same requests in some sequential order give
 * (`RateLimiterLincheckSuite`; `RateLimiterOrderSuite`, "fixed window: a window installed after
 * the clock moved on ..."). With the clock read before the install instead, a preempted installer
 * published a window already shortened by the time it had lost, in which other callers' permits
 * were counted in the old window. Callers that meet a frozen count wait on the lock for the
 * turn to end: a short section that never waits itself.
 *
 * Each window arms one timer on the shared scheduler for its end, which marks the count
 * `Expired`, so the fast path needs no clock to see a window end. The timer holds only the small
 * window object, never the limiter, and a limiter nobody uses arms none: no thread, and nothing
 * pending a window after the last permit. So each window lasts at least `window` (longer by the
 * timer's lateness, while permits are still counted in it) and gives at most `maxOps` permits
 * (`RateLimiterSuite`, "fixed window: ..."); windows are not aligned on a grid but start at the
 * first request after the previous one ended.
 */
private[resilience] final class FixedWindowLimiter(maxOps: Int, window: Long, clock: Clock)
    extends RateLimiter(clock):
  import FixedWindowLimiter.{Expired, Frozen, Window}
  RateLimiter.atLeastOne(maxOps, "maxOps")

  // Written only under `turning`; read by anyone.
  @volatile private var current: Window = Window.none
  private val turning = ReentrantLock()

  def maxPermits: Int = maxOps

  protected def tryTake(n: Int): Long =
    val w = current
    var used = w.get
    while used >= 0 do
      if used <= maxOps - n then
        if w.compareAndSet(used, used + n) then return 0L
        used = w.get
      else
        val now = clock.nanoTime()
        if now - w.end < 0L then return w.end - now
        return turn(n) // full and over
    turn(n) // expired, frozen or replaced

  /** The slow path, under the lock: takes from the current window, or turns it. */
  private def turn(n: Int): Long =
    turning.lock()
    try
      val w = current
      // Only this lock's holder freezes, and it unfreezes or replaces before unlocking, so the
      // count is a number or `Expired` here: take the permits if there is room, else freeze.
      var used = w.get
      var settled = false
      while !settled && used >= 0 do
        if w.compareAndSet(used, if used <= maxOps - n then used + n else Frozen) then
          settled = true
        else used = w.get
      if used >= 0 && used <= maxOps - n then return 0L
      val now = clock.nanoTime() // the count is frozen or expired: nothing changes until we say
      if used >= 0 && now - w.end < 0L then
        w.compareAndSet(Frozen, used): Unit // fails only if its timer expired it meanwhile
        w.end - now
      else
        val next = Window(now + window, n)
        current = next
        w.set(Expired) // a stale reader of the old window goes to the slow path
        clock.schedule(window, () => next.set(Expired))
        0L
    finally turning.unlock()

  override def toString: String = s"RateLimiter.fixedWindow($maxOps per ${window}ns)"

private[resilience] object FixedWindowLimiter:

  /** The count of a window that is over. Negative: below any count of permits. */
  final val Expired = -1

  /** The count of a window whose turn is being decided under the lock. */
  final val Frozen = -2

  /** A window ending at `end` and, as the atomic integer, the permits given in it. */
  final class Window(val end: Long, taken: Int) extends AtomicInteger(taken)

  object Window:
    /** The window before the first: already over. */
    def none: Window = Window(0L, Expired)
