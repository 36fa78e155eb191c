package weft.flow

import scala.concurrent.duration.*
import weft.*
import weft.flow.FlowTimeTesting.*
import weft.testing.{Deadlined, FailureChecks}
import weft.testing.VirtualTesting.*
import weft.testkit.*

/**
 * `groupedWithin(n, within)`: a group is emitted when it holds `n` elements or when `within` has
 * passed since its first element came, never empty; the last, partial group when the flow ends.
 * On virtual time, so the instant each group is emitted is exact.
 */
class FlowGroupedWithinSuite extends munit.FunSuite, Deadlined, FailureChecks:

  /** One element every 30 ms, 1 to `count`, the first at 30 ms. */
  private def every30(count: Int)(using VirtualClock): Flow[Int] =
    timed((1 to count).map(i => (i * 30).millis -> i)*)

  test("groups closed by size: full groups at once, the partial last one at the end"):
    VirtualTime.run:
      val groups = stamped(Flow.range(0, 7).groupedWithin(3, 1.second))
      assertEquals(groups.map(_._2), List(Seq(0, 1, 2), Seq(3, 4, 5), Seq(6)))
      assertEquals(groups.map(_._1), ms(0, 0, 0), "a group waited although full or at the end")
      assertEquals(scopeTimers, 0)

  onBothCallers("groups closed by time: `within` after each group's first element"):
    VirtualTime.run:
      // elements at 30, 60, ..., 300 ms; a window opens at each group's first element
      val groups = stamped(every30(10).groupedWithin(100, 100.millis))
      assertEquals(
        groups,
        List(
          130.millis -> Seq(1, 2, 3, 4), // 30 + 100: 4 came at 120 ms
          250.millis -> Seq(5, 6, 7, 8), // 5 came at 150 ms
          300.millis -> Seq(9, 10) // the flow ended at 300 ms, before 370 ms
        )
      )
      assertEquals(currentTime, 300.millis)

  test("a group closed by size opens the next window at the next element, not before"):
    VirtualTime.run:
      val source =
        timed(0.millis -> 0, 0.millis -> 1, 0.millis -> 2, 0.millis -> 3, 0.millis -> 4)
          .concat(timed(50.millis -> 5, 80.millis -> 6, 300.millis -> 7))
      val groups = stamped(source.groupedWithin(3, 100.millis))
      assertEquals(
        groups,
        List(
          0.millis -> Seq(0, 1, 2), // full at once
          50.millis -> Seq(3, 4, 5), // full when 5 came: sooner than 100 ms after 3
          180.millis -> Seq(6), // alone: 100 ms after it came
          300.millis -> Seq(7) // the last, at the end of the flow
        )
      )

  test("never an empty group: a long pause upstream emits nothing"):
    VirtualTime.run:
      val source = timed(0.millis -> 1, 1.hour -> 2, 2.hours -> 3)
      val groups = stamped(source.groupedWithin(10, 1.second))
      assertEquals(
        groups,
        List(1.second -> Seq(1), (1.hour + 1.second) -> Seq(2), 2.hours -> Seq(3))
      )
      assertEquals(stamped(Flow.empty[Int].groupedWithin(2, 1.second)), Nil)
      assertEquals(currentTime, 2.hours, "an empty flow waited for a window")

  onBothCallers("a failure upstream while a group is open ends the run with it at once"):
    VirtualTime.run:
      val boom = IllegalStateException("boom")
      var seen = Vector.empty[Seq[Int]]
      val failing = Flow(1, 2).concat(timed(10.millis -> 3)).concat(Flow.failed(boom))
      val e = intercept[IllegalStateException](
        failing.groupedWithin(5, 100.millis).runForeach(seen :+= _)
      )
      assert(e eq boom, s"the failure was replaced by $e")
      assertEquals(seen, Vector.empty, "the open group was emitted although the flow failed")
      assertEquals(currentTime, 10.millis, "the failure waited for the group's window")
      assertEquals(scopeTimers, 0, "the open group's window was left scheduled")

  test("stopped downstream midway: the upstream fiber and the window end with the run"):
    VirtualTime.run:
      var upstreamEnded = false
      val groups = Flow
        .tick(10.millis)
        .zipWithIndex
        .map(_._2)
        .onComplete { upstreamEnded = true }
        .groupedWithin(3, 25.millis)
        .take(2)
      // ticks at 10, 20, 30 fill the first group; 40, 50, 60 the second
      assertEquals(
        stamped(groups),
        List(30.millis -> Seq(0L, 1L, 2L), 60.millis -> Seq(3L, 4L, 5L))
      )
      assert(upstreamEnded, "the ticking upstream was not stopped")
      assertEquals(scopeTimers, 0)

  test("a slow consumer: groups fill from what waited, the upstream is held back"):
    VirtualTime.run:
      var produced = 0
      val groups = Flow
        .range(0, 100)
        .tap(_ => produced += 1)
        .groupedWithin(4, 1.second)
        .map { g =>
          sleep(1.minute)
          g
        }
        .take(2)
        .runToList()
      assertEquals(groups, List(Seq(0, 1, 2, 3), Seq(4, 5, 6, 7)))
      // two groups of 4 taken, and at most the boundary's capacity produced ahead of them
      assert(produced > 8, s"the upstream did not run ahead: $produced")
      assert(produced <= 4 + 4 + Flow.DefaultBuffer, s"the upstream was not held back: $produced")
      assertEquals(currentTime, 2.minutes)

  test("bad arguments are refused when groupedWithin is called, naming the parameter"):
    def refused(body: => Any): String = intercept[IllegalArgumentException](body).getMessage
    assertEquals(
      refused(Flow(1).groupedWithin(0, 1.second)),
      "groupedWithin: n must be >= 1, was 0"
    )
    for within <- List(Duration.Zero, -5.millis) do
      val message = refused(Flow(1).groupedWithin(2, within))
      assert(message.startsWith("groupedWithin: within must be > 0, was "), message)
