package weft.guide

import scala.concurrent.duration.*
import weft.*
import weft.channels.UnboundedChannel

// example: testing-suite
class HeartbeatSuite extends munit.FunSuite:

  test("the heartbeat beats, and stops with its scope, its thread included"):
    val beats = UnboundedChannel[Int]()
    var thread: Thread | Null = null
    Async.blocking:
      withTimeout(10.seconds): // a hang fails within seconds instead of never
        val heartbeat = Future:
          thread = Thread.currentThread()
          var n = 0
          while true do
            n += 1
            beats.send(n)
            sleep(10)
        assertEquals(beats.read().get, 1) // wait for the event, not for a duration
        assertEquals(beats.read().get, 2)
    assert(!thread.nn.isAlive, "the heartbeat's thread outlived its scope")
// end
