package weft

import java.util.concurrent.atomic.AtomicInteger
import weft.*
import weft.testing.TimeTesting.*

/**
 * Sleepers on the shared timer thread hold no platform thread: a property of the real timer
 * that virtual time cannot show (sleep's other tests run on virtual time: `SleepSuite`, in the
 * test kit's module).
 */
class SleepThreadsSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("10,000 concurrent sleepers hold no platform thread each"):
    val before = platformThreads
    val woke = AtomicInteger()
    val peak = AtomicInteger()
    Async.blocking:
      val fs = (1 to 10_000).map: _ =>
        Future:
          sleep(300)
          woke.incrementAndGet()
      awaitCondition("all sleepers scheduled")(pendingTimers >= 10_000 || woke.get > 0)
      peak.set(platformThreads)
      fs.awaitAll
    assertEquals(woke.get, 10_000)
    assert(peak.get - before <= 4, s"platform threads went from $before to ${peak.get}")
