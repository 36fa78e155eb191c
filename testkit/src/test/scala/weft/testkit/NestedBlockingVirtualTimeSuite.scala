package weft.testkit

import scala.concurrent.duration.*
import weft.*

/**
 * A scope entered inside a virtual-time scope (`Async.blocking` called by code under test)
 * counts the same virtual clock: `Async.blocking` takes the calling fiber's support
 * (`AsyncSupport.current`). Regression: it took `AsyncSupport.default`, so its `sleep` waited on
 * the real timer thread and the kit, seeing every fiber wait with no virtual timer pending,
 * reported a deadlock.
 */
class NestedBlockingVirtualTimeSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("regression: an Async.blocking entered inside the scope sleeps on virtual time"):
    VirtualTime.run:
      Async.blocking(sleep(1.hour))
      assertEquals(currentTime, 1.hour)

  test("code given the body's Async sleeps on virtual time"):
    def pause()(using Async): Unit = sleep(1.hour)
    VirtualTime.run:
      pause()
      assertEquals(currentTime, 1.hour)
