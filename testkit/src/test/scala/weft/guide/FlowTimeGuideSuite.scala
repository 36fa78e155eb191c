package weft.guide

import scala.concurrent.duration.*
import weft.*
import weft.flow.Flow
import weft.testkit.*

/** The time examples of docs/guide/flow.md, run on the test kit's virtual time. */
class FlowTimeGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  // example: flow-time
  test("throttle, ticks, groupedWithin and debounce, on virtual time"):
    VirtualTime.run:
      val throttled = Flow.range(0, 6).throttle(2, 1.second).map(_ => currentTime).runToList()
      assertEquals(throttled, List(0, 0, 1, 1, 2, 2).map(_.seconds))

      val start = currentTime
      val ticks = Flow.tick(1.minute).take(3).map(_ => currentTime - start).runToList()
      assertEquals(ticks, List(1, 2, 3).map(_.minutes)) // the first after one period

      val batches = Flow
        .usingEmit[Int]: emit =>
          for i <- 1 to 5 do
            emit(i)
            sleep(300.millis) // elements at 0, 0.3, 0.6, 0.9 and 1.2 s
        .groupedWithin(10, 1.second) // the first batch closes 1 s after its first element
        .runToList()
      assertEquals(batches, List(Seq(1, 2, 3, 4), Seq(5)))

      val typed = Flow
        .usingEmit[String]: emit =>
          for word <- List("w", "we", "wef", "weft") do
            emit(word)
            sleep(100.millis) // typing fast: no pause of 500 ms
          sleep(2.seconds)
          emit("weft flow")
        .debounce(500.millis) // what stayed 500 ms without a newer one, and the last
        .runToList()
      assertEquals(typed, List("weft", "weft flow"))
  // end
