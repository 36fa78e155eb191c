package weft

import java.util.concurrent.TimeoutException
import scala.concurrent.duration.FiniteDuration
import weft.internal.async.TimeoutRegion
import weft.internal.futures.RunnableFuture
import weft.internal.runtime.{Delays, DurationText}

/**
 * Runs `body` with a time limit: its value, or `None` if `timeout` elapses first.
 *
 * `body` runs on the caller's own thread, platform or virtual: no fiber is started, and the
 * caller's thread-locals are visible in it. When the time is up, a timer cancels that block
 * only: its waits (awaits, sleeps, channel operations, joins) throw as on a cancel, and the
 * futures it started are cancelled; they are joined before this returns, so nothing of the body
 * outlives the call. The caller is left as it was: it is neither cancelled nor interrupted
 * afterwards, and its next wait waits. An `uninterruptible` part of the body is not cut short:
 * the time-out takes effect when it ends. A body that finishes first returns `Some(value)`, or
 * throws its exception. So does a body that the time-out cancelled but that threw an exception
 * of its own rather than the cancellation (or one caused by it): that exception is thrown here,
 * not dropped.
 *
 * A value is never discarded: if the body produced it although the time was up (it returned
 * before the cancellation reached it: it never waited after that), this returns
 * `Some(value)`, so a value read from a channel or a permit acquired reaches the caller, who
 * owns it. If the caller's own scope is cancelled meanwhile, the body is cancelled too and a
 * `CancellationException` is thrown, unless the body produced its value, which is returned.
 * Nested limits each end their own block: the inner one fires on its block only, the outer one
 * ends the inner block too.
 *
 * @throws IllegalArgumentException
 *   if `timeout` is negative
 */
def withTimeoutOption[T](timeout: FiniteDuration)(body: Async ?=> T)(using Async): Option[T] =
  Delays.checkDelay(timeout, "withTimeoutOption: the timeout")
  limited(timeout)(body)

/**
 * [[withTimeoutOption]] once its timeout is checked (each caller names its own parameter): the
 * body runs here, with a [[TimeoutRegion]] as its context (see there for the timer's part).
 */
private def limited[T](timeout: FiniteDuration)(body: Async ?=> T)(using outer: Async): Option[T] =
  val region = TimeoutRegion(outer)
  region.arm(timeout.toNanos)
  val value =
    try body(using region)
    catch
      case e: Throwable =>
        val timedOut = region.close()
        // The caller's own cancellation wins over the time-out; the body's own failure (one
        // that the time-out did not provoke) is thrown as it is.
        if timedOut && !outer.cancellationPending && RunnableFuture.provokedByCancel(e) then
          return None
        throw e
  region.close(): Unit // timed out or not, a value produced stands
  Some(value)

/**
 * As [[withTimeoutOption]], with the limit in milliseconds (at least zero). More milliseconds
 * than a `FiniteDuration` holds (about 292 years, e.g. `Long.MaxValue`) are no limit: the body
 * runs until it finishes.
 * @throws IllegalArgumentException
 *   if `millis` is negative
 */
def withTimeoutOption[T](millis: Long)(body: Async ?=> T)(using Async): Option[T] =
  limited(Delays.millisToDuration(millis, "withTimeoutOption: the timeout"))(body)

/**
 * Runs `body` with a time limit: its value, or a `TimeoutException` if `timeout` elapses first
 * (the body is then cancelled, and the futures it started joined, before this throws). See
 * [[withTimeoutOption]] for the details.
 *
 * @throws java.util.concurrent.TimeoutException
 *   if the body did not finish within `timeout`
 * @throws IllegalArgumentException
 *   if `timeout` is negative
 */
def withTimeout[T](timeout: FiniteDuration)(body: Async ?=> T)(using Async): T =
  Delays.checkDelay(timeout, "withTimeout: the timeout")
  limited(timeout)(body) match
    case Some(v) => v
    case None => throw TimeoutException(s"the body did not finish within ${DurationText(timeout)}")

/**
 * As [[withTimeout]], with the limit in milliseconds (at least zero). More milliseconds than a
 * `FiniteDuration` holds (about 292 years, e.g. `Long.MaxValue`) are no limit.
 * @throws IllegalArgumentException
 *   if `millis` is negative
 */
def withTimeout[T](millis: Long)(body: Async ?=> T)(using Async): T =
  withTimeout(Delays.millisToDuration(millis, "withTimeout: the timeout"))(body)

/**
 * Runs `body` with a time limit: `Right(value)`, or `Left(onTimeout)` if `timeout` elapses
 * first. The rules are those of [[withTimeoutOption]]: on time-out the body is cancelled and the
 * futures it started have finished before this returns, and a value the body produced is never dropped.
 * `onTimeout` is evaluated only on time-out; an exception of the body is thrown, not wrapped.
 *
 * {{{
 * val reply: Either[String, Int] = withTimeoutEither(1.second, "no answer")(ask())
 * }}}
 * @throws IllegalArgumentException
 *   if `timeout` is negative
 */
def withTimeoutEither[E, T](timeout: FiniteDuration, onTimeout: => E)(body: Async ?=> T)(using
    Async
): Either[E, T] =
  Delays.checkDelay(timeout, "withTimeoutEither: the timeout")
  limited(timeout)(body) match
    case Some(v) => Right(v)
    case None    => Left(onTimeout)

/**
 * As [[withTimeoutEither]], with the limit in milliseconds (at least zero). More milliseconds
 * than a `FiniteDuration` holds (about 292 years, e.g. `Long.MaxValue`) are no limit.
 * @throws IllegalArgumentException
 *   if `millis` is negative
 */
def withTimeoutEither[E, T](millis: Long, onTimeout: => E)(body: Async ?=> T)(using
    Async
): Either[E, T] =
  withTimeoutEither(
    Delays.millisToDuration(millis, "withTimeoutEither: the timeout"),
    onTimeout
  )(body)
