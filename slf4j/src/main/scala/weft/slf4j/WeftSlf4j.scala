package weft.slf4j

import org.slf4j.{Logger, LoggerFactory}
import weft.UnobservedFailures

/** Installing the SLF4J side of weft's JVM-wide settings. */
object WeftSlf4j:

  /** The logger [[logUnobservedFailures]] writes to unless given one: `weft.UnobservedFailures`. */
  val DefaultLoggerName: String = "weft.UnobservedFailures"

  /**
   * Sends every failure that nobody can observe (see [[weft.UnobservedFailures]]: a failing
   * `forkReported` handler, a failure after a cancel, what a scope's end finds unread) to
   * `logger` from now on, at ERROR level: the report's one line (what failed, on which thread)
   * as the message, the failure with its stack trace as the throwable. Call it once at start-up;
   * it replaces the default, which prints to standard error.
   *
   * {{{
   * object Server extends WeftApp:
   *   def run(args: Seq[String])(using Async): Int =
   *     WeftSlf4j.logUnobservedFailures()
   *     ...
   * }}}
   */
  def logUnobservedFailures(logger: Logger = LoggerFactory.getLogger(DefaultLoggerName)): Unit =
    require(logger != null, "logger must not be null")
    UnobservedFailures.setReporter((line, e) => logger.error(line, e))
