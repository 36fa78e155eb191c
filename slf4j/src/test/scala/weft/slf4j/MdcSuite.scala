package weft.slf4j

import ch.qos.logback.classic.LoggerContext
import org.slf4j.{LoggerFactory, MDC}
import scala.concurrent.duration.*
import weft.*

/** The MDC bridge, with logback (whose MDC a new thread does not inherit). */
class MdcSuite extends munit.FunSuite, weft.testing.Deadlined:

  override val munitTimeout = 30.seconds

  override def beforeEach(context: BeforeEach): Unit = MDC.clear()

  test("logback is the backend, and without the bridge a future does not see the MDC"):
    assert(LoggerFactory.getILoggerFactory.isInstanceOf[LoggerContext])
    MDC.put("requestId", "r-0")
    val seen = Async.blocking(Future(Option(MDC.get("requestId"))).await)
    assertEquals(seen, None)

  test("inside propagating, a request id put in the parent's MDC is in its futures' and theirs"):
    val seen = Async.blocking:
      Mdc.propagating:
        MDC.put("requestId", "r-1")
        Future((MDC.get("requestId"), Future(MDC.get("requestId")).await)).await
    assertEquals(seen, ("r-1", "r-1"))

  test("where: the entries for the block and its futures, the previous MDC restored after"):
    MDC.put("requestId", "outer")
    val seen = Async.blocking:
      Mdc.where("requestId" -> "r-2", "user" -> "ann"):
        Future((MDC.get("requestId"), MDC.get("user"))).await
    assertEquals(seen, ("r-2", "ann"))
    assertEquals((MDC.get("requestId"), MDC.get("user")), ("outer", null))

  test("a child's MDC is a copy: its changes do not reach the parent"):
    val parentAfter = Async.blocking:
      Mdc.where("k" -> "parent"):
        Future(MDC.put("k", "child")).await
        MDC.get("k")
    assertEquals(parentAfter, "parent")

  test("a log line written in a child future carries the parent's request id"):
    val logger = LoggerFactory.getLogger("weft.slf4j.MdcSuite")
    val events = LogCapture("weft.slf4j.MdcSuite"):
      Async.blocking:
        Mdc.where("requestId" -> "r-3"):
          supervised:
            Future(logger.info("in the child")).await
    assertEquals(events.map(_.getMDCPropertyMap.get("requestId")), List("r-3"))

  test("a failing future inside where: the scope fails, the MDC is restored"):
    intercept[IllegalStateException]:
      Async.blocking:
        Mdc.where("requestId" -> "r-4"):
          Future[Int](throw IllegalStateException("x")).await
    assertEquals(MDC.get("requestId"), null)

  test("a null key is rejected at the call"):
    intercept[IllegalArgumentException]:
      Async.blocking(Mdc.where((null: String) -> "v")(()))
