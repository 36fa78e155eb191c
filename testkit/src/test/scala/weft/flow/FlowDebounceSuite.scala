package weft.flow

import scala.concurrent.duration.*
import weft.*
import weft.flow.FlowTimeTesting.*
import weft.testing.{Deadlined, FailureChecks}
import weft.testing.VirtualTesting.*
import weft.testkit.*

/**
 * `debounce(quiet)`, Kotlin's `debounce`: an element passes once `quiet` has passed without a
 * newer one; the last element always passes, when the flow ends. Kotlin's own examples, on
 * virtual time, so each element's instant is exact.
 */
class FlowDebounceSuite extends munit.FunSuite, Deadlined, FailureChecks:

  /** Kotlin's example: 1, then 2 after 90 ms, 3 after 90 ms, 4 after 1010 ms, 5 after 1010 ms. */
  private def kotlinExample(using VirtualClock): Flow[Int] =
    timed(0.millis -> 1, 90.millis -> 2, 180.millis -> 3, 1190.millis -> 4, 2200.millis -> 5)

  onBothCallers("Kotlin's example: debounce(1000) lets 3, 4 and 5 pass"):
    VirtualTime.run:
      val out = stamped(kotlinExample.debounce(1.second))
      assertEquals(out.map(_._2), List(3, 4, 5))
      // 3 and 4 a second after they came, 5 when the flow ends with it
      assertEquals(out.map(_._1), ms(1180, 2190, 2200))
      assertEquals(scopeTimers, 0)

  test("a quiet time shorter than every gap lets everything pass, each `quiet` after it came"):
    VirtualTime.run:
      val out = stamped(kotlinExample.debounce(50.millis))
      assertEquals(
        out,
        List(50 -> 1, 140 -> 2, 230 -> 3, 1240 -> 4, 2200 -> 5).map((t, v) => (t.millis, v))
      )

  test("the last element always passes, when the flow ends, not `quiet` later"):
    VirtualTime.run:
      assertEquals(stamped(Flow(1, 2, 3).debounce(1.hour)), List(Duration.Zero -> 3))
      // 2 comes 500 ms after the run's start, the flow ends 300 ms after it
      val source =
        timed(0.millis -> 1, 500.millis -> 2).concat(Flow.usingEmit(_ => sleep(300.millis)))
      assertEquals(stamped(source.debounce(1.hour)), List(800.millis -> 2))
      // run again from 800 ms: 1 passes 200 ms after it came, 2 200 ms after it came too
      assertEquals(stamped(source.debounce(200.millis)), List(1000.millis -> 1, 1500.millis -> 2))

  test("a steady stream faster than `quiet` passes nothing until it ends"):
    VirtualTime.run:
      val ticks = Flow.tick(10.millis).zipWithIndex.map(_._2).take(50)
      assertEquals(stamped(ticks.debounce(15.millis)), List(500.millis -> 49L))
      assertEquals(stamped(Flow.empty[Int].debounce(1.second)), Nil)
      assertEquals(currentTime, 500.millis, "an empty flow waited")

  test("stopped downstream midway: the ticking upstream ends with the run"):
    VirtualTime.run:
      var upstreamEnded = false
      val ticks = Flow.tick(100.millis).onComplete { upstreamEnded = true }.debounce(50.millis)
      assertEquals(stamped(ticks.take(2)).map(_._1), ms(150, 250))
      assert(upstreamEnded, "the ticking upstream was not stopped")
      assertEquals(scopeTimers, 0)

  test("a failure upstream while an element is held ends the run with it; the element is lost"):
    VirtualTime.run:
      val boom = IllegalStateException("boom")
      var seen = Vector.empty[Int]
      val failing = timed(0.millis -> 1, 10.millis -> 2).concat(Flow.failed(boom))
      val e = intercept[IllegalStateException](failing.debounce(1.second).runForeach(seen :+= _))
      assert(e eq boom, s"the failure was replaced by $e")
      assertEquals((seen, currentTime), (Vector.empty, 10.millis))
      assertEquals(scopeTimers, 0)

  test("a quiet time that is not positive is refused when debounce is called, naming it"):
    for quiet <- List(Duration.Zero, -1.second) do
      val e = intercept[IllegalArgumentException](Flow(1).debounce(quiet))
      assert(e.getMessage.startsWith("debounce: quiet must be > 0, was "), e.getMessage)
