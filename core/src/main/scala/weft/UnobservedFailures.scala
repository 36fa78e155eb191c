package weft

import weft.runtime.Fiber

/**
 * Where a failure that nobody observed goes: the failure of a future that was never awaited or
 * polled by the time its scope ended. (In a [[supervised]] scope there is no such failure: it
 * fails the scope instead.) Two kinds are reported before the scope's end:
 *   - a failure the body threw after `cancel()` had already completed its future (the future's
 *     result is the cancellation, so nobody can observe it there): reported when it happens
 *     (unless a failing supervised scope attaches it to its own failure);
 *   - in a long-lived scope, the oldest unobserved failures beyond the newest 1024: reported
 *     then rather than held to the end, so that a scope's memory stays bounded. Such a failure
 *     can still be awaited; the report is then a false alarm. A failure observed after it
 *     happened is never reported and no longer held.
 * Cancellations, and interrupts a cancellation provoked, are never reported.
 *
 * By default such a failure goes to the uncaught-exception handler of the thread that ends the
 * scope, which prints it to standard error unless the application installed its own. An
 * application can send it to its logger instead:
 *
 * {{{
 * UnobservedFailures.setHandler(e => logger.error("a future failed unobserved", e))
 * }}}
 */
object UnobservedFailures:

  @volatile private var custom: (Throwable => Unit) | Null = null

  /** Sends unobserved failures to `handler` from now on (for the whole JVM). */
  def setHandler(handler: Throwable => Unit): Unit =
    require(handler != null, "handler must not be null")
    custom = handler

  /** Sends unobserved failures to the thread's uncaught-exception handler again (the default). */
  def resetHandler(): Unit = custom = null

  /**
   * Runs `body` with unobserved failures sent to `handler`, then restores the handler that was
   * set before (for tests: the setting is global, not per scope).
   */
  def withHandler[T](handler: Throwable => Unit)(body: => T): T =
    require(handler != null, "handler must not be null")
    val previous = custom
    custom = handler
    try body
    finally custom = previous

  /** Reports `e`; a handler that throws is itself reported to the thread's handler. */
  private[weft] def report(e: Throwable): Unit =
    val h = custom
    if h == null then Fiber.reportUncaught(e)
    else
      try h(e)
      catch case t: Throwable => Fiber.reportUncaught(t)
