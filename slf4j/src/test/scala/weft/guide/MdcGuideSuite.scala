package weft.guide

import org.slf4j.MDC
import weft.*
import weft.slf4j.{LogCapture, Mdc}

/** The MDC example of docs/guide/context.md, run with logback. */
class MdcGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("context: the MDC bridge carries a request id into a future's log lines"):
    val events = LogCapture("orders"):
      // example: context-mdc
      val log = org.slf4j.LoggerFactory.getLogger("orders")

      Async.blocking:
        Mdc.where("requestId" -> "r-7"):
          val lookup = Future:
            log.info("looking up") // logged with requestId=r-7
            MDC.get("requestId")
          lookup.await // "r-7"
      // end
    assertEquals(events.map(_.getMDCPropertyMap.get("requestId")), List("r-7"))
