package weft.testkit

import scala.concurrent.duration.*

/**
 * How a virtual-time scope ([[VirtualTime.run]]) watches its fibers.
 *
 * @param blockedLimit
 *   how long (real time) a fiber may stay blocked in a JDK call (`Thread.sleep`, a socket read, a
 *   `java.util.concurrent` lock) while nothing else progresses, before the scope fails with a
 *   [[BlockedFiberException]] naming it: such a fiber holds virtual time still, as the kit cannot
 *   know when it will wake
 * @param deadlockGrace
 *   how long (real time) every fiber must have been waiting, with no timer pending, before the
 *   scope fails with a [[DeadlockException]]: room for a wake from outside the scope (a JDK
 *   callback completing a promise) that the kit cannot see coming
 * @param outsideWaitsHoldTime
 *   whether a fiber waiting in one of weft's own socket reads or accepts (`weft-io`'s TCP and
 *   UDP, the memcached client's connection reader) holds virtual time still like any JDK call
 *   (`true`, the default: a reply on its way is never overtaken by a virtual deadline), or
 *   counts as waiting (`false`: virtual time passes while a peer is silent, so a test can watch
 *   a deadline or a liveness check fire against a stalled server; a reply in flight may then be
 *   overtaken). Waiting outside never counts as a deadlock: with nothing else pending the scope
 *   waits for the outside world, up to `blockedLimit` without progress
 */
final case class VirtualTimeConfig(
    blockedLimit: FiniteDuration = 5.seconds,
    deadlockGrace: FiniteDuration = 20.millis,
    outsideWaitsHoldTime: Boolean = true
):
  require(
    blockedLimit > Duration.Zero,
    s"VirtualTimeConfig: blockedLimit must be > 0, got $blockedLimit"
  )
  require(
    deadlockGrace >= Duration.Zero,
    s"VirtualTimeConfig: deadlockGrace must be >= 0, got $deadlockGrace"
  )
