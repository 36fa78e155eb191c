package weft

import scala.concurrent.duration.FiniteDuration
import weft.internal.runtime.Delays
import weft.internal.select.Selector

/**
 * A case of [[Async.select]] that fires once `timeout` has elapsed with no other case fired, and
 * runs `body`: Kotlin's `onTimeout`, ox's `selectWithin`. A case ready when the select starts
 * always wins over it, even over a zero timeout. The timer starts only if the select has to
 * wait, and it is cancelled as soon as another case fires or the select is given up (its fiber
 * cancelled): a loop of selects leaves no timer behind, and needs no timer of its own.
 * {{{
 * while running do
 *   Async.select(
 *     inbox.canRead ~~> (m => handle(m)),
 *     onTimeout(1.second)(sendHeartbeat())
 *   )
 * }}}
 * Each select counts its own `timeout`, from when it starts waiting; a case value made once and
 * used in many selects is fine.
 * @throws IllegalArgumentException
 *   if `timeout` is negative
 */
def onTimeout[R](timeout: FiniteDuration)(body: => R)(using async: Async): SelectCase[Unit, R] =
  Delays.checkDelay(timeout, "onTimeout: the timeout")
  SelectCase(Selector.Timeout(timeout.toNanos, async.support.scheduler), _ => body)

/**
 * [[onTimeout]] with the timeout in milliseconds. More milliseconds than a `FiniteDuration`
 * holds (about 292 years, e.g. `Long.MaxValue`) make a case that never fires.
 * @throws IllegalArgumentException
 *   if `millis` is negative
 */
def onTimeout[R](millis: Long)(body: => R)(using Async): SelectCase[Unit, R] =
  onTimeout(Delays.millisToDuration(millis, "onTimeout: the timeout"))(body)
