package weft
package internal.async

import java.util.concurrent.CancellationException
import weft.internal.InternalApi

/** Checks of the current scope's cancellation, for loops that must stop between steps. */
@InternalApi
object Cancellation:

  /** Whether the scope (or future) that `async` belongs to has been cancelled. */
  def pending(using async: Async): Boolean = async.cancellationPending

  /** Throws a `CancellationException` if [[pending]]. */
  def check(what: String)(using Async): Unit =
    if pending then throw CancellationException(s"$what: the scope was cancelled")
