package weft.guide

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import org.slf4j.MDC
import scala.jdk.CollectionConverters.*
import weft.*
import weft.slf4j.Mdc

/** The MDC example of docs/guide/context.md, run with logback. */
class MdcGuideSuite extends munit.FunSuite:

  test("context: the MDC bridge carries a request id into a future's log lines"):
    val appender = ListAppender[ILoggingEvent]()
    val orders = org.slf4j.LoggerFactory.getLogger("orders").asInstanceOf[Logger]
    appender.setContext(orders.getLoggerContext)
    appender.start()
    orders.addAppender(appender)
    try
      // example: context-mdc
      val log = org.slf4j.LoggerFactory.getLogger("orders")

      Async.blocking:
        Mdc.where("requestId" -> "r-7"):
          val lookup = Future:
            log.info("looking up") // logged with requestId=r-7
            MDC.get("requestId")
          lookup.await // "r-7"
      // end
      val events = appender.list.asScala.toList
      assertEquals(events.map(_.getMDCPropertyMap.get("requestId")), List("r-7"))
    finally orders.detachAppender(appender): Unit
