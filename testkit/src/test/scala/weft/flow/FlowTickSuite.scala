package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import weft.*
import weft.flow.FlowTimeTesting.*
import weft.testing.{Deadlined, FailureChecks}
import weft.testing.VirtualTesting.*
import weft.testkit.*

/**
 * `Flow.tick`: a value once per period, the first after one period, on the run's ticker, so on
 * virtual time every tick's instant is exact; a slow consumer skips ticks; the ticker stops with
 * the run, however it ends.
 */
class FlowTickSuite extends munit.FunSuite, Deadlined, FailureChecks:

  onBothCallers("ticks come one period apart, the first after one period, and stop with the run"):
    VirtualTime.run:
      val ticks = stamped(Flow.tick(10.millis, "t").take(4))
      assertEquals(ticks, ms(10, 20, 30, 40).map((_, "t")))
      assertEquals(currentTime, 40.millis)
      assertEquals(scopeTimers, 0, "the ticker was left scheduled after the run")

  test("the default value is (), and a period of an hour ticks after exactly an hour"):
    VirtualTime.run:
      assertEquals(stamped(Flow.tick(1.hour).take(2)), List((1.hour, ()), (2.hours, ())))

  test("a consumer slower than the period skips the ticks it overran: none queued, no burst"):
    VirtualTime.run:
      // busy 25 ms after each tick: 20 and 30 ring while it works after 10, so the next is 40
      val seen = Flow.tick(10.millis).map { _ =>
        val t = currentTime
        sleep(25.millis)
        t
      }.take(4).runToList()
      assertEquals(seen, ms(10, 40, 70, 100))
      assertEquals(currentTime, 125.millis)
      assertEquals(scopeTimers, 0)

  test("cold: each run has its own ticker, counted from that run's start"):
    VirtualTime.run:
      val flow = Flow.tick(10.millis).take(2)
      assertEquals(stamped(flow).map(_._1), ms(10, 20))
      sleep(5.millis)
      assertEquals(stamped(flow).map(_._1), ms(35, 45))

  test("a run ended by a timeout midway stops the ticker: no timer, no later tick"):
    VirtualTime.run:
      val seen = AtomicInteger()
      var stopped = false
      val r = withTimeoutOption(3500.millis):
        Flow.tick(1.second).onComplete { stopped = true }.runForeach(_ => seen.incrementAndGet())
      assertEquals(r, None)
      assertEquals((currentTime, seen.get, stopped), (3500.millis, 3, true))
      assertEquals(scopeTimers, 0, "the cancelled run left its ticker scheduled")
      sleep(10.seconds)
      assertEquals(seen.get, 3, "a tick arrived after the run ended")

  test("behind a boundary: the ticker's fiber ends with the run"):
    VirtualTime.run:
      var tickFiber: Thread | Null = null
      val ticks = Flow
        .tick(10.millis)
        .tap(_ => tickFiber = Thread.currentThread())
        .buffer(2)
        .take(3)
      assertEquals(stamped(ticks).map(_._1), ms(10, 20, 30))
      assert(tickFiber != null && !tickFiber.nn.isAlive, "the ticking fiber outlived the run")
      assertEquals(scopeTimers, 0)

  test("zipped with a tick, a flow is paced one element per period, and the ticker stops"):
    VirtualTime.run:
      val paced = Flow.range(0, 3).zip(Flow.tick(1.second)).map(_._1)
      assertEquals(stamped(paced), List(1.second -> 0, 2.seconds -> 1, 3.seconds -> 2))
      assertEquals(currentTime, 3.seconds)
      assertEquals(scopeTimers, 0, "the ticker outlived the zip")

  test("a period that is not positive is refused when tick is called, naming it"):
    for period <- List(Duration.Zero, -1.millis) do
      val e = intercept[IllegalArgumentException](Flow.tick(period, 1))
      assert(e.getMessage.startsWith("tick: period must be > 0, was "), e.getMessage)
