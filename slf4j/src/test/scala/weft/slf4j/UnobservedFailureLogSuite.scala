package weft.slf4j

import ch.qos.logback.classic.Level
import java.util.concurrent.{CountDownLatch, TimeUnit}
import weft.{Async, UnobservedFailures, forkReported}

/** `WeftSlf4j.logUnobservedFailures`: a failing reported fork is logged at once, at ERROR. */
class UnobservedFailureLogSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("a failing handler is logged at ERROR: the report's line, then the failure"):
    val boom = IllegalStateException("bad request")
    val events = LogCapture(WeftSlf4j.DefaultLoggerName):
      UnobservedFailures.withHandler(_ => ()): // restores the handler afterwards
        WeftSlf4j.logUnobservedFailures()
        Async.blocking:
          val logged = CountDownLatch(1)
          forkReported:
            try throw boom
            finally logged.countDown()
          assert(logged.await(15, TimeUnit.SECONDS), "the handler did not run")
    assertEquals(events.size, 1, events)
    val e = events.head
    assertEquals(e.getLevel, Level.ERROR)
    assert(
      e.getFormattedMessage.matches(
        """weft: a future started with forkReported failed \[virtual thread #\d+\]"""
      ),
      e.getFormattedMessage
    )
    assertEquals(e.getThrowableProxy.getMessage, "bad request")
    assertEquals(e.getThrowableProxy.getClassName, classOf[IllegalStateException].getName)
