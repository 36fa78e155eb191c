package weft

import java.util.concurrent.TimeoutException
import scala.concurrent.duration.FiniteDuration
import scala.util.Success

/**
 * Runs `body` with a time limit: its value, or `None` if `timeout` elapses first.
 *
 * `body` runs on a new fiber in a nested scope, raced against a [[Timer]]. If the timer wins,
 * the body is cancelled (its fiber interrupted, the futures it started cancelled) and this
 * returns `None` only after the body's fiber has finished, so nothing of it outlives the call.
 * A body that finishes first returns `Some(value)`, or throws its exception. A body inside
 * `uninterruptible` is waited for, then discarded. If the caller's own scope is cancelled
 * meanwhile, the body is cancelled too and a `CancellationException` is thrown.
 *
 * @throws IllegalArgumentException
 *   if `timeout` is negative
 */
def withTimeoutOption[T](timeout: FiniteDuration)(body: Async ?=> T)(using Async): Option[T] =
  require(timeout.length >= 0, s"a timeout must be >= 0, got $timeout")
  Async.group:
    val f = Future(body)
    val timer = Timer(timeout, summon[Async].support.scheduler)
    try
      Async.await(Async.either(f, timer)) match
        case Left(result) => Some(result.get)
        case Right(_) =>
          f.cancel()
          f.poll() match
            case Some(Success(v)) => Some(v)
            case _                => None
    finally timer.cancel()

/** As [[withTimeoutOption]], with the limit in milliseconds (at least zero). */
def withTimeoutOption[T](millis: Long)(body: Async ?=> T)(using Async): Option[T] =
  withTimeoutOption(StartableTimer.millisToDuration(millis))(body)

/**
 * Runs `body` with a time limit: its value, or a `TimeoutException` if `timeout` elapses first
 * (the body is then cancelled and its fiber finished before this throws). See
 * [[withTimeoutOption]] for the details.
 *
 * @throws java.util.concurrent.TimeoutException
 *   if the body did not finish within `timeout`
 * @throws IllegalArgumentException
 *   if `timeout` is negative
 */
def withTimeout[T](timeout: FiniteDuration)(body: Async ?=> T)(using Async): T =
  withTimeoutOption(timeout)(body) match
    case Some(v) => v
    case None    => throw TimeoutException(s"the body did not finish within $timeout")

/** As [[withTimeout]], with the limit in milliseconds (at least zero). */
def withTimeout[T](millis: Long)(body: Async ?=> T)(using Async): T =
  withTimeout(StartableTimer.millisToDuration(millis))(body)
