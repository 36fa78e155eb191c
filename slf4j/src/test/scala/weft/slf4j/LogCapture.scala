package weft.slf4j

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import org.slf4j.LoggerFactory
import scala.jdk.CollectionConverters.*

/** Captures what a logback logger writes, with each event's MDC taken on the logging thread. */
object LogCapture:

  /**
   * Runs `body` and returns the events logged to `loggerName` meanwhile. An event's MDC is read
   * lazily by logback, from the thread that asks; the appender fixes it on the logging thread,
   * as an encoder writing the line would.
   */
  def apply(loggerName: String)(body: => Unit): List[ILoggingEvent] =
    val logger = LoggerFactory.getLogger(loggerName).asInstanceOf[Logger]
    val appender = new ListAppender[ILoggingEvent]:
      override protected def append(e: ILoggingEvent): Unit =
        e.prepareForDeferredProcessing()
        super.append(e)
    appender.setContext(logger.getLoggerContext)
    appender.start()
    logger.addAppender(appender)
    try
      body
      appender.list.asScala.toList
    finally logger.detachAppender(appender): Unit
