package weft.testkit

import weft.internal.runtime.DurationText

/** Why a virtual-time scope failed on its own: a deadlock, or a fiber blocked outside weft. */
sealed abstract class VirtualTimeException(message: String) extends RuntimeException(message):

  /** The fibers the report is about, as they were when the scope failed. */
  def fibers: List[WaitingFiber]

/**
 * Every fiber of the scope waited on weft, no timer was pending and nothing woke them for the
 * grace period: nothing ever would. The message lists each fiber, what it waits on and its stack.
 *
 * @param at
 *   the virtual time of the deadlock (since the scope started)
 */
final class DeadlockException(
    val at: scala.concurrent.duration.FiniteDuration,
    val fibers: List[WaitingFiber]
) extends VirtualTimeException(WaitingFiber.report(
      s"deadlock at virtual time ${DurationText(at)}: every fiber waits and no timer is pending",
      fibers
    ))

/**
 * A fiber stayed blocked in a JDK call (not a weft wait) longer than
 * [[VirtualTimeConfig.blockedLimit]] while nothing else progressed: it held virtual time still.
 * The message names it and where it blocks.
 */
final class BlockedFiberException(
    val fibers: List[WaitingFiber],
    limit: scala.concurrent.duration.FiniteDuration
) extends VirtualTimeException(
      WaitingFiber.report(
        s"a fiber blocked outside weft for ${DurationText(limit)} of real time held virtual time still " +
          "(use weft's sleep, channels and futures inside VirtualTime.run, not the JDK's)",
        fibers
      )
    )
