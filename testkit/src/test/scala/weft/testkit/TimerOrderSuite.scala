package weft.testkit

import java.util.concurrent.ConcurrentLinkedQueue
import scala.concurrent.duration.*
import weft.*

/**
 * Timers due at the same virtual instant fire in the order they were scheduled, so that a
 * test's outcome does not depend on how the queue breaks ties (a `withTimeout` armed before the
 * sleep it limits fires first).
 */
class TimerOrderSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("timers due at the same instant fire in scheduling order"):
    val fired = ConcurrentLinkedQueue[Int]()
    VirtualTime.run:
      val scheduler = summon[Async].support.scheduler
      for i <- 1 to 20 do scheduler.schedule(1.second.toNanos, () => fired.add(i): Unit): Unit
      scheduler.schedule(500.millis.toNanos, () => fired.add(0): Unit): Unit
      advanceBy(1.second)
    assertEquals(fired.toArray.toSeq, (0 to 20).map(Int.box))
