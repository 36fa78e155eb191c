package weft.testkit

import scala.concurrent.duration.*
import weft.*

/**
 * A scope entered inside a virtual-time scope (`Async.blocking` called by code under test)
 * should count the same virtual clock. It does not yet: `Async.blocking` takes
 * `AsyncSupport.default` (core's `Async.scala`), so its `sleep` waits on the real timer thread
 * and the kit, seeing every fiber wait with no virtual timer pending, reports a deadlock.
 * The test is marked `.fail` (munit passes it while it fails) until `Async.blocking` takes the
 * calling fiber's support (`AsyncSupport.current`); then remove `.fail`.
 */
class NestedBlockingVirtualTimeSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("an Async.blocking entered inside the scope sleeps on virtual time".fail):
    VirtualTime.run:
      Async.blocking(sleep(1.hour))
      assertEquals(currentTime, 1.hour)

  test("code given the body's Async sleeps on virtual time"):
    def pause()(using Async): Unit = sleep(1.hour)
    VirtualTime.run:
      pause()
      assertEquals(currentTime, 1.hour)
