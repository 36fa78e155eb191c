package weft
package internal.runtime

import weft.runtime.*

import scala.concurrent.duration.{FiniteDuration, MILLISECONDS, NANOSECONDS}

/**
 * The checks of a delay or timeout given to weft's time APIs (`sleep`, `Timer`, `Ticker`,
 * `withTimeout`, `onTimeout`): one message naming the call and its parameter for a negative
 * value, and "never" for more milliseconds than a `FiniteDuration` holds. Here, below every
 * layer that takes a delay, so that each can use it (`BadInputSuite` re-checks the messages).
 */
private[weft] object Delays:

  /**
   * The longest delay: `Long.MaxValue` nanoseconds, about 292 years. The scheduler never runs a
   * task that far away, so a timer of this delay never rings.
   */
  val Longest: FiniteDuration = FiniteDuration(Long.MaxValue, NANOSECONDS)

  /** The most milliseconds a `FiniteDuration` holds. */
  private val MaxMillis: Long = Long.MaxValue / 1_000_000L

  /**
   * `millis` as a duration, for the parameter named by `what` ("withTimeout: the timeout"). A
   * negative value is refused naming the parameter; a value beyond what a `FiniteDuration` holds
   * (as `Long.MaxValue`) is the `Longest` delay, that is never, instead of Scala's error about
   * the limits of a duration (`BadInputSuite`, "huge delays ...").
   */
  def millisToDuration(millis: Long, what: String): FiniteDuration =
    if millis < 0L then throw IllegalArgumentException(s"$what must be >= 0, got $millis ms")
    if millis > MaxMillis then Longest else FiniteDuration(millis, MILLISECONDS)

  /** Refuses a negative `delay` for the parameter named by `what`. */
  def checkDelay(delay: FiniteDuration, what: String): Unit =
    if delay == null then throw NullPointerException(s"$what is null")
    if delay.length < 0L then throw IllegalArgumentException(s"$what must be >= 0, got $delay")
