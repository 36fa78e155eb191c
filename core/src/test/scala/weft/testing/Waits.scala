package weft.testing

import java.util.concurrent.{CountDownLatch, TimeUnit}
import scala.concurrent.duration.*
import weft.{Async, Future, await, withTimeoutOption}

/**
 * Waits with a deadline, for tests: each fails with a message naming what it waited for,
 * instead of hanging the run when a bug leaves it waiting forever. The deadlines are generous
 * (a loaded CI machine must never reach them); they only turn a hang into a failure.
 */
object Waits:

  /** The default deadline of one wait, in seconds. */
  val DefaultSeconds = 20

  /** `f`'s value, awaited for at most `seconds`; fails naming `what` if `f` is not done by then. */
  def within[T](f: Future[T], what: String, seconds: Int = DefaultSeconds)(using Async): T =
    withTimeoutOption(seconds.seconds)(f.await)
      .getOrElse(throw AssertionError(s"$what: not done within $seconds s"))

  /** Waits for `latch` for at most `seconds`; fails naming `what` if it is not open by then. */
  def latch(latch: CountDownLatch, what: String, seconds: Int = DefaultSeconds): Unit =
    if !latch.await(seconds, TimeUnit.SECONDS) then
      throw AssertionError(s"$what: not within $seconds s (${latch.getCount} counts left)")

  /** Joins `t` for at most `seconds`; fails naming `what` if it is still alive then. */
  def join(t: Thread, what: String, seconds: Int = DefaultSeconds): Unit =
    t.join(seconds * 1000L)
    if t.isAlive then throw AssertionError(s"$what: thread $t still running after $seconds s")
