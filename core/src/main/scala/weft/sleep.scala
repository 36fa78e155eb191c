package weft

import scala.concurrent.duration.FiniteDuration
import weft.internal.runtime.Delays

/**
 * Suspends the caller for `millis` milliseconds (at least zero), without holding a thread: a
 * timer on the shared scheduler wakes it. Cancellable: if the scope is cancelled meanwhile, it
 * throws a `CancellationException` at once, and the timer is freed. More milliseconds than a
 * `FiniteDuration` holds (about 292 years, e.g. `Long.MaxValue`) sleep until cancelled.
 * @throws IllegalArgumentException
 *   if `millis` is negative
 */
def sleep(millis: Long)(using Async): Unit =
  sleep(Delays.millisToDuration(millis, "sleep: the delay"))

/**
 * Suspends the caller for `duration` (at least zero); see [[sleep(millis:Long)*]].
 * @throws IllegalArgumentException
 *   if `duration` is negative
 */
def sleep(duration: FiniteDuration)(using async: Async): Unit =
  Delays.checkDelay(duration, "sleep: the delay")
  val timer = Timer(duration, async.support.scheduler)
  try async.await(timer)
  finally timer.cancel()
