package weft

import java.util.concurrent.{CancellationException, TimeoutException}
import scala.concurrent.duration.FiniteDuration
import weft.internal.runtime.Delays

/**
 * Runs `body` with a time limit: its value, or `None` if `timeout` elapses first.
 *
 * `body` runs on a new virtual thread in a nested scope, raced against a [[Timer]]. If the
 * timer wins, the body is cancelled (its thread interrupted, the futures it started cancelled)
 * and this returns only after the body's thread has finished, so nothing of it outlives the
 * call. A body
 * that finishes first returns `Some(value)`, or throws its exception.
 *
 * A value is never discarded: if the body produced it although the time was up (it returned
 * before the cancellation reached it: it never waited after that), this returns
 * `Some(value)`, so a value read from a channel or a permit acquired reaches the caller, who
 * owns it. If the caller's own scope is cancelled meanwhile, the body is cancelled too and a
 * `CancellationException` is thrown, unless the body produced its value, which is returned.
 *
 * @throws IllegalArgumentException
 *   if `timeout` is negative
 */
def withTimeoutOption[T](timeout: FiniteDuration)(body: Async ?=> T)(using Async): Option[T] =
  Delays.checkDelay(timeout, "withTimeoutOption: the timeout")
  limited(timeout)(body)

/** [[withTimeoutOption]] once its timeout is checked (each caller names its own parameter). */
private def limited[T](timeout: FiniteDuration)(body: Async ?=> T)(using Async): Option[T] =
  // The body's own outcome, kept apart from its future's: cancelling the future completes it
  // at once, while the body may still return a value. Written on the body's fiber, read after
  // the group's end has joined that fiber (`TimeoutSuite`, "a value produced as the timeout
  // fires is returned").
  var produced: Option[T] = None
  val raced =
    try
      Async.group:
        val f = Future:
          val v = body
          produced = Some(v)
          v
        val timer = Timer(timeout, summon[Async].support.scheduler)
        try
          Async.await(Async.either(f, timer)) match
            case Left(result) => Some(result.get)
            case Right(_)     => None
        finally timer.cancel()
    catch
      case _: CancellationException if produced.isDefined => produced
      case _: InterruptedException if produced.isDefined =>
        weft.runtime.Fiber.selfInterrupt() // keep the interrupt for the caller's next wait
        produced
  raced.orElse(produced)

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
 * (the body is then cancelled and its thread finished before this throws). See
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
    case None    => throw TimeoutException(s"the body did not finish within $timeout")

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
 * first. The rules are those of [[withTimeoutOption]]: on time-out the body is cancelled and its
 * fiber has finished before this returns, and a value the body produced is never dropped.
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
