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
 */
final case class VirtualTimeConfig(
    blockedLimit: FiniteDuration = 5.seconds,
    deadlockGrace: FiniteDuration = 20.millis
):
  require(
    blockedLimit > Duration.Zero,
    s"VirtualTimeConfig: blockedLimit must be > 0, got $blockedLimit"
  )
  require(
    deadlockGrace >= Duration.Zero,
    s"VirtualTimeConfig: deadlockGrace must be >= 0, got $deadlockGrace"
  )
