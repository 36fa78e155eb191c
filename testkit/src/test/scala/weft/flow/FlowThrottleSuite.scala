package weft.flow

import scala.concurrent.duration.*
import weft.*
import weft.flow.FlowTimeTesting.*
import weft.testing.{Deadlined, FailureChecks}
import weft.testing.VirtualTesting.*
import weft.testkit.*

/**
 * `throttle(elements, per)`: a sliding window; `elements` pass at once, and each later element
 * waits until the one `elements` places before it is `per` old. Fused: the wait is a sleep on the
 * fiber that feeds it. On virtual time, so every element's instant is exact.
 */
class FlowThrottleSuite extends munit.FunSuite, Deadlined, FailureChecks:

  onBothCallers("`elements` pass at once, then as many one window later, and so on"):
    VirtualTime.run:
      val out = stamped(Flow.range(0, 7).throttle(3, 1.second))
      assertEquals(out.map(_._2), (0 until 7).toList)
      assertEquals(out.map(_._1), List(0, 0, 0, 1, 1, 1, 2).map(_.seconds))
      assertEquals(currentTime, 2.seconds, "the last element does not wait for a further window")
      assertEquals(scopeTimers, 0)

  test("one element per window: exactly one period apart"):
    VirtualTime.run:
      assertEquals(
        stamped(Flow.range(0, 4).throttle(1, 250.millis)).map(_._1),
        ms(0, 250, 500, 750)
      )

  test("windows do not drift: the time the consumer takes is counted inside the window"):
    VirtualTime.run:
      // each element keeps the stage busy 30 ms; windows still begin at 0, 100, 200 ms
      val passed = Flow.range(0, 6).throttle(2, 100.millis).map { _ =>
        val t = currentTime
        sleep(30.millis)
        t
      }.runToList()
      assertEquals(passed, ms(0, 30, 100, 130, 200, 230))

  test("a pause upstream longer than a window starts a new window at the element after it"):
    VirtualTime.run:
      val source = timed(0.millis -> 0, 0.millis -> 1, 0.millis -> 2, 350.millis -> 3).concat(
        Flow(4, 5)
      )
      val out = stamped(source.throttle(2, 100.millis))
      assertEquals(out.map(_._2), (0 until 6).toList)
      // 2 waits for the second window (100 ms); 3 comes 250 ms later: a new window begins at
      // 350 ms, so 3 and 4 pass at once and 5 waits until 450 ms
      assertEquals(out.map(_._1), ms(0, 0, 100, 350, 350, 450))

  // A sliding window: element k waits until element k - `elements` is `per` old, so no span of
  // `per` holds more than `elements` emissions, wherever it begins; fixed windows would let 2
  // elements pass at 99 ms and 2 more at 100 ms.
  test("a sliding window: never more than `elements` within any span of `per`"):
    VirtualTime.run:
      val late = timed(60.millis -> 0, 60.millis -> 1, 60.millis -> 2)
      assertEquals(stamped(late.throttle(2, 100.millis)).map(_._1), ms(60, 60, 160))
      val start = currentTime
      val edge =
        timed(99.millis -> 0, 99.millis -> 1, 99.millis -> 2, 99.millis -> 3).concat(Flow(4))
      val times = stamped(edge.throttle(2, 100.millis)).map(_._1 - start)
      assertEquals(times, ms(99, 99, 199, 199, 299))
      for i <- 2 until times.size do
        assert(times(i) - times(i - 2) >= 100.millis, s"3 elements within 100 ms: $times")

  test("throttle is fused: elements upstream are produced only as they pass"):
    VirtualTime.run:
      var produced = Vector.empty[FiniteDuration]
      val flow = Flow.range(0, 5).tap(_ => produced :+= currentTime).throttle(2, 1.second)
      assertEquals(flow.runToList(), (0 until 5).toList)
      // each element is produced once the one before it has passed: one waits in the
      // throttle, no more are produced ahead
      assertEquals(produced, Vector(0, 0, 0, 1, 1).map(_.seconds))

  test("a failure upstream ends the run with it, after the elements before it passed on time"):
    VirtualTime.run:
      val boom = IllegalStateException("boom")
      var seen = Vector.empty[(FiniteDuration, Int)]
      val failing = Flow(0, 1, 2).concat(Flow.failed(boom))
      val e = intercept[IllegalStateException](
        failing.throttle(1, 100.millis).runForeach(i => seen :+= (currentTime, i))
      )
      assert(e eq boom, s"the failure was replaced by $e")
      assertEquals(seen, Vector(0.millis -> 0, 100.millis -> 1, 200.millis -> 2))
      assertEquals(currentTime, 200.millis)

  test("a run cancelled while throttle waits ends at once, leaving no timer"):
    VirtualTime.run:
      var seen = Vector.empty[Int]
      val r = withTimeoutOption(150.millis)(
        Flow.range(0, 10).throttle(1, 100.millis).runForeach(seen :+= _)
      )
      assertEquals((r, seen, currentTime), (None, Vector(0, 1), 150.millis))
      assertEquals(scopeTimers, 0, "the throttle's wait was left scheduled")

  test("bad arguments are refused when throttle is called, naming the parameter"):
    def refused(body: => Any): String = intercept[IllegalArgumentException](body).getMessage
    assertEquals(refused(Flow(1).throttle(0, 1.second)), "throttle: elements must be >= 1, was 0")
    assertEquals(refused(Flow(1).throttle(-3, 1.second)), "throttle: elements must be >= 1, was -3")
    for per <- List(Duration.Zero, -1.second) do
      val message = refused(Flow(1).throttle(1, per))
      assert(message.startsWith("throttle: per must be > 0, was "), message)
