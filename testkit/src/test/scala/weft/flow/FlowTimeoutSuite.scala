package weft.flow

import java.util.concurrent.TimeoutException
import scala.concurrent.duration.*
import weft.*
import weft.flow.FlowTimeTesting.*
import weft.testing.{Deadlined, FailureChecks}
import weft.testing.VirtualTesting.*
import weft.testkit.*

/**
 * `timeout(d)`: the flow must end within `d` of its run's start, the stages downstream
 * included, else the run fails with a `TimeoutException` at exactly `d`, every stage cancelled
 * and joined. On virtual time, so the instant is exact.
 */
class FlowTimeoutSuite extends munit.FunSuite, Deadlined, FailureChecks:

  test("a flow that ends in time gives its elements, and leaves no timer"):
    VirtualTime.run:
      assertEquals(
        stamped(Flow.tick(1.second).take(3).timeout(5.seconds)).map(_._1),
        List(1, 2, 3).map(_.seconds)
      )
      assertEquals(currentTime, 3.seconds)
      assertEquals(scopeTimers, 0, "the timeout's timer outlived the run")

  onBothCallers("an overrunning flow fails at exactly the timeout, its source stopped"):
    VirtualTime.run:
      var seen = 0
      var stopped = false
      val e = intercept[TimeoutException](
        Flow.tick(1.second).onComplete { stopped = true }.timeout(3500.millis).runForeach(_ =>
          seen += 1
        )
      )
      assert(e.getMessage.contains("3.5 s"), e.getMessage)
      assertEquals((currentTime, seen, stopped), (3500.millis, 3, true))
      assertEquals(scopeTimers, 0, "the ticker or the timeout was left scheduled")

  test("the stages inside the limit belong to it: a boundary waiting for ever is cancelled"):
    VirtualTime.run:
      // the buffer's scope must be the timeout's, or the timeout cannot cancel it: the run would
      // go on until its source's hour of sleep is over
      var stopped = false
      val slow = Flow.usingEmit[Int] { emit =>
        emit(1)
        try sleep(1.hour)
        finally stopped = true
      }
      intercept[TimeoutException](slow.buffer(4).timeout(2.seconds).runDrain())
      assertEquals((currentTime, stopped), (2.seconds, true))
      assertEquals(scopeTimers, 0)

  test("a future a stage starts belongs to the time limit: cancelled when it strikes"):
    VirtualTime.run:
      // the run goes on after the timeout (recover), so a future left in the run's scope would
      // be cancelled only when the run ends, 5 s later
      var cancelledAt = Duration.Zero
      val src = Flow.usingEmit[Int] { emit =>
        Future:
          try sleep(1.hour)
          finally cancelledAt = currentTime
        emit(1)
        sleep(1.hour)
      }
      val out = src
        .timeout(2.seconds)
        .recover { case _: TimeoutException => -1 }
        .map { v =>
          if v == -1 then sleep(5.seconds)
          v
        }
        .runToList()
      assertEquals(out, List(1, -1))
      assertEquals((cancelledAt, currentTime), (2.seconds, 7.seconds))

  test("the stages downstream count: a slow consumer makes the flow time out"):
    VirtualTime.run:
      var seen = Vector.empty[(FiniteDuration, Int)]
      intercept[TimeoutException](
        Flow(1, 2, 3).timeout(1.second).runForeach { i =>
          sleep(400.millis)
          seen :+= (currentTime, i)
        }
      )
      assertEquals(seen, Vector(400.millis -> 1, 800.millis -> 2))
      assertEquals(currentTime, 1.second)

  test("a boundary upstream: its fiber is cancelled and joined before the failure is thrown"):
    VirtualTime.run:
      var upstream: Thread | Null = null
      var sent = 0
      val flow = Flow
        .tick(100.millis)
        .tap { _ =>
          upstream = Thread.currentThread()
          sent += 1
        }
        .buffer(4)
        .timeout(250.millis)
      intercept[TimeoutException](flow.runDrain())
      assertEquals((currentTime, sent), (250.millis, 2))
      assert(upstream != null && !upstream.nn.isAlive, "the upstream fiber outlived the run")
      assertEquals(scopeTimers, 0)

  test("timeout covers only the stages before it: a later sleep downstream of a boundary is free"):
    VirtualTime.run:
      // upstream (the timed part) ends at once into the buffer; the consumer's sleeps are after
      val out = stamped(Flow.range(0, 3).timeout(1.second).buffer(4).map { i =>
        sleep(1.second)
        i
      })
      assertEquals(out, List(1.second -> 0, 2.seconds -> 1, 3.seconds -> 2))

  test("each run has its own limit, from that run's start"):
    VirtualTime.run:
      val flow = Flow.tick(1.second).take(2).timeout(2500.millis)
      assertEquals(flow.runToList().size, 2)
      assertEquals(flow.runToList().size, 2, "the second run counted from the first's start")
      assertEquals(currentTime, 4.seconds)

  test("a negative timeout is refused when timeout is called, naming it"):
    val e = intercept[IllegalArgumentException](Flow(1).timeout(-1.second))
    assert(e.getMessage.startsWith("timeout: timeout must be >= 0, was "), e.getMessage)
