package weft.testkit

import scala.concurrent.duration.*
import weft.Async

/**
 * The clock of a virtual-time scope, given to its body by [[VirtualTime.run]]: read the virtual
 * time, or let it pass by hand. The package's [[currentTime]], [[advanceBy]] and [[runUntilIdle]]
 * call it.
 */
final class VirtualClock private[testkit] (driver: Driver):

  /** The virtual time elapsed since the scope started: exact, whatever the machine's load. */
  def now: FiniteDuration = driver.scheduler.elapsedNanos.nanos

  /** The virtual time as weft's timers read it (`AsyncSupport.clock`): only differences count. */
  def nanoTime: Long = driver.scheduler.nanoTime()

  /**
   * Lets `d` of virtual time pass: returns once the clock reads `now + d`, every timer due by then
   * has fired, and every other fiber of the scope waits again.
   * @throws IllegalArgumentException
   *   if `d` is negative
   */
  def advanceBy(d: FiniteDuration)(using Async): Unit =
    require(d >= Duration.Zero, s"advanceBy: the duration must be >= 0, got $d")
    driver.awaitAdvance(d.toNanos)

  /** Returns once every other fiber of the scope waits, without moving the clock. */
  def runUntilIdle()(using Async): Unit = driver.awaitIdle()

/** The virtual time elapsed since the scope started (see [[VirtualClock.now]]). */
def currentTime(using clock: VirtualClock): FiniteDuration = clock.now

/** Lets `d` of virtual time pass (see [[VirtualClock.advanceBy]]). */
def advanceBy(d: FiniteDuration)(using clock: VirtualClock, async: Async): Unit = clock.advanceBy(d)

/** Returns once every other fiber of the scope waits (see [[VirtualClock.runUntilIdle]]). */
def runUntilIdle()(using clock: VirtualClock, async: Async): Unit = clock.runUntilIdle()
