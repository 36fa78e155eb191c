package weft

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import scala.util.{Failure, Success}
import weft.*
import weft.TaskSchedule.*
import weft.testing.VirtualTesting.scopeTimers
import weft.testkit.*

/**
 * Task and TaskSchedule: exact repetition counts, the value each schedule ends with, the pauses
 * (exact, on virtual time), cancellation, and bad input.
 */
class TaskSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A body counting its runs; fails on the runs in `failOn` with "fail <n>". */
  // Each run's start is read on the clock of the run's support: virtual time inside
  // `VirtualTime.run`, so the gaps are exact.
  private class Body(failOn: Int => Boolean = _ => false, takes: Long = 0L):
    val runs = AtomicInteger()
    private val startQueue = java.util.concurrent.ConcurrentLinkedQueue[Long]()
    def starts: Seq[Long] = startQueue.toArray.toSeq.map(_.asInstanceOf[Long])
    def apply()(using Async): Int =
      val n = runs.incrementAndGet()
      startQueue.add(summon[Async].support.clock.nanoTime())
      if takes > 0 then sleep(takes)
      if failOn(n) then throw IllegalStateException(s"fail $n") else n
    def gapsMillis: Seq[Long] =
      starts.sliding(2).collect { case Seq(a, b) => (b - a) / 1_000_000L }.toSeq

    /** Each run's start, in milliseconds after the first. */
    def startsMillis: Seq[Long] = starts.map(t => (t - starts.head) / 1_000_000L)

  private def failure(n: Int): Failure[Int] = Failure(IllegalStateException(s"fail $n"))

  private def sameOutcome(actual: scala.util.Try[Int], expected: scala.util.Try[Int]): Unit =
    (actual, expected) match
      case (Failure(a), Failure(e)) =>
        assertEquals(a.getClass, e.getClass)
        assertEquals(a.getMessage, e.getMessage)
      case _ => assertEquals(actual, expected)

  /** Runs the task on virtual time; the outcome, and the virtual time it took. */
  private def runTimed(s: Option[TaskSchedule], b: Body): (scala.util.Try[Int], FiniteDuration) =
    VirtualTime.run((Task(b(), s).run.result, currentTime))

  private def runTask(s: Option[TaskSchedule], b: Body): scala.util.Try[Int] = runTimed(s, b)._1

  test("a task without schedule runs once; each run starts a new future"):
    val b = Body()
    val t = Task(b())
    Async.blocking:
      assertEquals(t.run.value, 1)
      assertEquals(t.run.value, 2)
    assertEquals(b.runs.get, 2)

  test("schedule returns a new task and leaves the original alone"):
    val t = Task(1)
    val s = t.schedule(Every(10, 2))
    assertEquals(t.taskSchedule, None)
    assertEquals(s.taskSchedule, Some(Every(10, 2)))

  test("Every(n runs) runs exactly n times, ends with the last value, at a fixed rate"):
    // each run takes 5 ms: a fixed rate starts them 20 ms apart all the same, not 25
    val b = Body(takes = 5)
    val (outcome, took) = runTimed(Some(Every(20, maxRepetitions = 5)), b)
    sameOutcome(outcome, Success(5))
    assertEquals(b.runs.get, 5)
    assertEquals(b.startsMillis, Seq(0L, 20, 40, 60, 80))
    assertEquals(took, 85.millis)

  test("Every: a run longer than the period delays the next, which starts at once, not in a burst"):
    val b = Body(takes = 30)
    val (outcome, _) = runTimed(Some(Every(20, maxRepetitions = 3)), b)
    sameOutcome(outcome, Success(3))
    assertEquals(b.startsMillis, Seq(0L, 30, 60))

  test("Every: after one overrun the rate resumes from the late start, with no catch-up runs"):
    // Only the first run overruns (350 ms of a 100 ms period): the next starts at once, and the
    // ones after it a period apart, not back to back until the schedule has caught up.
    val starts = java.util.concurrent.ConcurrentLinkedQueue[FiniteDuration]()
    VirtualTime.run:
      val t = Task:
        starts.add(currentTime)
        if starts.size == 1 then sleep(350.millis)
      t.schedule(Every(100, maxRepetitions = 5)).run.await
    assertEquals(starts.toArray.toSeq, Seq(0, 350, 450, 550, 650).map(_.millis))

  test("maxRepetitions = 1 runs the body exactly once, for every schedule"):
    for s <- Seq(
        Every(5, 1),
        ExponentialBackoff(5, 2, 1),
        FibonacciBackoff(5, 1),
        RepeatUntilFailure(5, 1),
        RepeatUntilSuccess(5, 1)
      )
    do
      val b = Body(_ => s.isInstanceOf[RepeatUntilSuccess])
      val expected = if s.isInstanceOf[RepeatUntilSuccess] then failure(1) else Success(1)
      sameOutcome(runTask(Some(s), b), expected)
      assertEquals(b.runs.get, 1, s.toString)

  test("Every stops at the first failure and ends with it"):
    val b = Body(_ == 3)
    sameOutcome(runTask(Some(Every(1, maxRepetitions = 10)), b), failure(3))
    assertEquals(b.runs.get, 3)

  test("ExponentialBackoff pauses millis * base^(k-1) after run k, and counts exactly"):
    val b = Body()
    sameOutcome(runTask(Some(ExponentialBackoff(10, 3, maxRepetitions = 4)), b), Success(4))
    assertEquals(b.runs.get, 4)
    assertEquals(b.gapsMillis, Seq(10L, 30L, 90L))

  test("FibonacciBackoff pauses millis * 1, 1, 2, 3, 5 and stops at the first failure"):
    val b = Body(_ == 6)
    sameOutcome(runTask(Some(FibonacciBackoff(10)), b), failure(6))
    assertEquals(b.runs.get, 6)
    assertEquals(b.gapsMillis, Seq(10L, 10L, 20L, 30L, 50L))

  test("RepeatUntilFailure ends with the first failure"):
    val b = Body(_ == 7)
    sameOutcome(runTask(Some(RepeatUntilFailure()), b), failure(7))
    assertEquals(b.runs.get, 7)

  test("RepeatUntilFailure ends with the last success when repetitions run out"):
    val b = Body()
    sameOutcome(runTask(Some(RepeatUntilFailure(maxRepetitions = 4)), b), Success(4))
    assertEquals(b.runs.get, 4)

  test("RepeatUntilSuccess ends with the first success, pausing after failures"):
    val b = Body(_ < 3)
    sameOutcome(runTask(Some(RepeatUntilSuccess(15)), b), Success(3))
    assertEquals(b.runs.get, 3)
    assertEquals(b.gapsMillis, Seq(15L, 15L))

  test("RepeatUntilSuccess ends with the last failure when repetitions run out"):
    val b = Body(_ => true)
    sameOutcome(runTask(Some(RepeatUntilSuccess(maxRepetitions = 4)), b), failure(4))
    assertEquals(b.runs.get, 4)

  // A body of type Try that returns a Failure (without throwing) fails its run, as in gears: the
  // schedule stops or goes on exactly as for a thrown failure, and the task ends with that Try.
  test("a body returning a Failure counts as a failed run for RepeatUntil* and Every"):
    val boom = IllegalStateException("returned, not thrown")
    def runs(s: TaskSchedule, failOn: Int => Boolean): (scala.util.Try[scala.util.Try[Int]], Int) =
      val n = AtomicInteger()
      val r = VirtualTime.run:
        Task[scala.util.Try[Int]](
          {
            val k = n.incrementAndGet()
            if failOn(k) then Failure(boom) else Success(k)
          },
          Some(s)
        ).run.result
      (r, n.get)
    assertEquals(runs(RepeatUntilFailure(maxRepetitions = 10), _ == 3), (Success(Failure(boom)), 3))
    assertEquals(runs(RepeatUntilSuccess(maxRepetitions = 10), _ < 3), (Success(Success(3)), 3))
    assertEquals(runs(Every(1, maxRepetitions = 10), _ == 2), (Success(Failure(boom)), 2))
    assertEquals(
      runs(RepeatUntilSuccess(maxRepetitions = 4), _ => true),
      (Success(Failure(boom)), 4)
    )

  test("each run has its own scope: futures started by a run end with it"):
    val live = AtomicInteger()
    val peak = AtomicInteger()
    VirtualTime.run:
      Task:
        Future:
          peak.accumulateAndGet(live.incrementAndGet(), math.max)
          try sleep(60_000)
          finally live.decrementAndGet()
        sleep(5)
      .schedule(Every(1, 5)).run.await
      assertEquals(currentTime, 25.millis, "five runs of 5 ms, each later than its rate")
      assertEquals(scopeTimers, 0)
    assertEquals(live.get, 0)
    assertEquals(peak.get, 1)

  test("cancelling an unbounded task stops further repetitions and frees its timer"):
    val b = Body()
    VirtualTime.run:
      Async.group:
        val f = Task(b()).schedule(Every(10)).run
        sleep(25)
        assertEquals(b.runs.get, 3, "runs at 0, 10 and 20 ms")
        f.cancel()
        assert(f.result.failed.get.isInstanceOf[CancellationException])
      assertEquals(scopeTimers, 0, "the cancelled pause left its timer")
      sleep(60)
      assertEquals(b.runs.get, 3)

  test("cancelling RepeatUntilSuccess is not a failure to retry"):
    val runs = AtomicInteger()
    VirtualTime.run:
      Async.group:
        val f = Task { runs.incrementAndGet(); sleep(60_000) }
          .schedule(RepeatUntilSuccess())
          .run
        runUntilIdle()
        assertEquals(runs.get, 1, "first run")
        f.cancel()
      sleep(30)
      assertEquals(scopeTimers, 0)
    assertEquals(runs.get, 1)

  test("bad input is an IllegalArgumentException at construction"):
    intercept[IllegalArgumentException](Every(-1))
    intercept[IllegalArgumentException](Every(10, -1))
    intercept[IllegalArgumentException](ExponentialBackoff(-5))
    intercept[IllegalArgumentException](ExponentialBackoff(5, exponentialBase = 0))
    intercept[IllegalArgumentException](FibonacciBackoff(5, maxRepetitions = -2))
    intercept[IllegalArgumentException](RepeatUntilFailure(-1))
    val e = intercept[IllegalArgumentException](RepeatUntilSuccess(0, -1))
    assert(e.getMessage.contains("maxRepetitions"), e.getMessage)

  test("every schedule takes its delay as a duration, rounded up to whole milliseconds"):
    assertEquals(TaskSchedule.Every(100.millis), TaskSchedule.Every(100))
    assertEquals(TaskSchedule.Every(2.seconds, 3), TaskSchedule.Every(2000, 3))
    assertEquals(TaskSchedule.Every(500.micros), TaskSchedule.Every(1)) // never a busy loop
    assertEquals(TaskSchedule.ExponentialBackoff(10.millis), TaskSchedule.ExponentialBackoff(10))
    assertEquals(
      TaskSchedule.ExponentialBackoff(10.millis, 3, 4),
      TaskSchedule.ExponentialBackoff(10, 3, 4)
    )
    assertEquals(TaskSchedule.FibonacciBackoff(1.second, 5), TaskSchedule.FibonacciBackoff(1000, 5))
    assertEquals(TaskSchedule.RepeatUntilFailure(1500.micros), TaskSchedule.RepeatUntilFailure(2))
    assertEquals(
      TaskSchedule.RepeatUntilSuccess(0.millis, 2),
      TaskSchedule.RepeatUntilSuccess(0, 2)
    )
    intercept[IllegalArgumentException](TaskSchedule.Every(-1.millis))
