package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import scala.annotation.tailrec
import scala.compiletime.uninitialized
import scala.concurrent.duration.FiniteDuration
import weft.runtime.{AsyncSupport, Scheduler}
import weft.internal.runtime.Delays

/** What a timer offers: `true` when its time has elapsed, `false` when it was cancelled first. */
type TimerRang = Boolean

/**
 * A timer that starts counting at its creation: `Async.await(Timer(1.second))` waits one second
 * and returns `true` (or `false` if the timer was cancelled meanwhile). A plain number is
 * milliseconds: `Timer(1000)` is `Timer(1.second)`.
 *
 * A timer is a source like any other, usable in `Async.race`, `Async.either` and as a case of
 * `Async.select` (`timer ~~> handler`), to bound how long the other cases may take. Nothing
 * cancels it when another case wins: it stays in the timer queue until its time comes (it then
 * rings for nobody, harmlessly). In a loop, or with long timers, that is many pending entries,
 * so cancel a timer once the select is over; `try`/`finally` does it on every path:
 * {{{
 * val timer = Timer(1.second)
 * try
 *   Async.select(
 *     orders.canRead ~~> (o => s"got ${o.get}"),
 *     timer ~~> (_ => "no order within a second")
 *   )
 * finally timer.cancel() // frees the entry now; does nothing if the timer rang
 * }}}
 * `Resource(Timer(d), _.cancel()).use(timer => ...)` is the same as a value. To bound a whole
 * block rather than one select, [[withTimeout]] and [[withTimeoutOption]] create and cancel
 * their timer themselves; to wait, [[sleep]] does.
 *
 * @param duration
 *   the delay, at least zero
 */
class Timer private[weft] (duration: FiniteDuration, scheduler: Scheduler)
    extends StartableTimer(duration, scheduler):

  /** A started timer of `duration` (at least zero). */
  def this(duration: FiniteDuration) = this(duration, AsyncSupport.current.scheduler)

  /**
   * A started timer of `millis` milliseconds (at least zero); more than a `FiniteDuration` holds
   * (about 292 years, e.g. `Long.MaxValue`) is a timer that never rings.
   */
  def this(millis: Long) = this(Delays.millisToDuration(millis, "Timer: the delay"))

  start()
