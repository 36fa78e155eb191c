package weft

import java.io.{PrintStream, PrintWriter, StringWriter}
import weft.runtime.Fiber

/**
 * Where a failure that nobody can observe goes. Reported here, each once:
 *   - the failure of a future started with [[forkReported]] (it has no result to read): when it
 *     happens, on the future's own thread;
 *   - a failure a future's body threw after `cancel()` had already completed its future (the
 *     future's result is the cancellation, so nobody can observe it there): when it happens
 *     (unless a failing supervised scope attaches it to its own failure);
 *   - the failure of an unlinked future (no scope will join it) that nobody observed: when it
 *     happens;
 *   - the failure of a future that nobody awaited, polled or listened to by the time its scope
 *     ended: at the scope's end (in a [[supervised]] scope there is none: it fails the scope);
 *   - in a long-lived scope, the oldest unobserved failures beyond the newest 1024: then rather
 *     than at the end, so that a scope's memory stays bounded. Such a failure can still be
 *     awaited; the report is then a false alarm. A failure observed after it happened is never
 *     reported and no longer held.
 * Cancellations, and interrupts a cancellation provoked, are never reported.
 *
 * By default a report is one line on standard error, saying what failed and on which thread,
 * followed by the failure's stack trace:
 *
 * {{{
 * weft: a future started with forkReported failed [virtual thread #42]
 * java.lang.IllegalStateException: bad request
 *     at ...
 * }}}
 *
 * An application can send reports to its logger instead (the `weft-slf4j` module has an
 * installer for SLF4J):
 *
 * {{{
 * UnobservedFailures.setReporter((line, e) => logger.error(line, e))
 * }}}
 */
object UnobservedFailures:

  @volatile private var custom: ((String, Throwable) => Unit) | Null = null

  /** Sends each unobserved failure to `handler` from now on (for the whole JVM). */
  def setHandler(handler: Throwable => Unit): Unit =
    require(handler != null, "handler must not be null")
    custom = (_, e) => handler(e)

  /**
   * Sends each unobserved failure to `reporter` from now on (for the whole JVM), with the line
   * the default would print before its stack trace (what failed, on which thread): the form a
   * logger wants, `(line, e) => logger.error(line, e)`.
   */
  def setReporter(reporter: (String, Throwable) => Unit): Unit =
    require(reporter != null, "reporter must not be null")
    custom = reporter

  /** Prints unobserved failures to standard error again (the default). */
  def resetHandler(): Unit = custom = null

  /**
   * Runs `body` with unobserved failures sent to `handler`, then restores the handler that was
   * set before (for tests: the setting is global, not per scope).
   */
  def withHandler[T](handler: Throwable => Unit)(body: => T): T =
    require(handler != null, "handler must not be null")
    val previous = custom
    custom = (_, e) => handler(e)
    try body
    finally custom = previous

  /**
   * Reports `e`, described by `what` (what failed, and when it is reported), tagged with the
   * calling thread: for a report made when the failure happens, the failing future's own. A
   * handler that throws is itself reported to the thread's uncaught-exception handler.
   */
  private[weft] def report(e: Throwable, what: String): Unit =
    val line = s"weft: $what [${Fiber.currentName}]"
    val h = custom
    if h == null then printReport(System.err, line, e)
    else
      try h(line, e)
      catch case t: Throwable => Fiber.reportUncaught(t)

  /**
   * The default report: `line`, then the stack trace, written with one call so that two reports
   * from two threads do not interleave (and without a lock a virtual thread would pin on).
   */
  private[weft] def printReport(out: PrintStream, line: String, e: Throwable): Unit =
    val text = StringWriter()
    val w = PrintWriter(text)
    w.println(line)
    e.printStackTrace(w)
    w.flush()
    out.print(text.toString)
    out.flush()

  /** What [[report]] says of a future started with [[forkReported]]. */
  private[weft] inline val ReportedFork = "a future started with forkReported failed"

  /** What [[report]] says of a failure thrown after the future's cancel. */
  private[weft] inline val AfterCancel = "a future failed after it was cancelled"

  /** What [[report]] says of an unlinked future's failure. */
  private[weft] inline val Unlinked = "a future no scope joins (unlinked) failed unobserved"

  /** What [[report]] says at a scope's join. */
  private[weft] inline val AtScopeEnd =
    "a future failed and nobody awaited it before its scope ended"

  /** What [[report]] says of a failure a long-lived scope stops holding. */
  private[weft] inline val Early =
    "a future failed and nobody awaited it (reported early: its scope holds 1024 newer ones)"
