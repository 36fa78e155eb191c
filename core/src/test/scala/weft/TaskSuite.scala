package weft

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Failure, Success}
import weft.*
import weft.TaskSchedule.*
import weft.testing.TimeTesting.*

/**
 * Task and TaskSchedule: exact repetition counts, the value each schedule ends with, lower bounds
 * of the pauses, cancellation, and bad input.
 */
class TaskSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A body counting its runs; fails on the runs in `failOn` with "fail <n>". */
  private class Body(failOn: Int => Boolean = _ => false):
    val runs = AtomicInteger()
    private val startQueue = java.util.concurrent.ConcurrentLinkedQueue[Long]()
    def starts: Seq[Long] = startQueue.toArray.toSeq.map(_.asInstanceOf[Long])
    def apply(): Int =
      val n = runs.incrementAndGet()
      startQueue.add(System.nanoTime())
      if failOn(n) then throw IllegalStateException(s"fail $n") else n
    def gapsMillis: Seq[Long] =
      starts.sliding(2).collect { case Seq(a, b) => (b - a) / 1_000_000L }.toSeq

  private def failure(n: Int): Failure[Int] = Failure(IllegalStateException(s"fail $n"))

  private def sameOutcome(actual: scala.util.Try[Int], expected: scala.util.Try[Int]): Unit =
    (actual, expected) match
      case (Failure(a), Failure(e)) =>
        assertEquals(a.getClass, e.getClass)
        assertEquals(a.getMessage, e.getMessage)
      case _ => assertEquals(actual, expected)

  private def runTask(s: Option[TaskSchedule], b: Body): scala.util.Try[Int] =
    Async.blocking(Task(b(), s).run.result)

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
    val b = Body()
    val before = System.nanoTime()
    sameOutcome(runTask(Some(Every(20, maxRepetitions = 5)), b), Success(5))
    assertEquals(b.runs.get, 5)
    // run k starts at least (k - 1) * 20 ms after the schedule's origin, which is after `before`
    val lastStart = (b.starts.last - before) / 1_000_000L
    assert(lastStart >= 80, s"the 5th run started $lastStart ms after the task was run")

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
    val gaps = b.gapsMillis
    assertEquals(gaps.size, 3)
    gaps.zip(Seq(10L, 30L, 90L)).foreach((g, min) => assert(g >= min, s"gaps $gaps"))

  test("FibonacciBackoff pauses millis * 1, 1, 2, 3, 5 and stops at the first failure"):
    val b = Body(_ == 6)
    sameOutcome(runTask(Some(FibonacciBackoff(10)), b), failure(6))
    assertEquals(b.runs.get, 6)
    val gaps = b.gapsMillis
    gaps.zip(Seq(10L, 10L, 20L, 30L, 50L)).foreach((g, min) => assert(g >= min, s"gaps $gaps"))

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
    b.gapsMillis.foreach(g => assert(g >= 15, s"gaps ${b.gapsMillis}"))

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
      val r = Async.blocking:
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
    Async.blocking:
      Task:
        Future:
          peak.accumulateAndGet(live.incrementAndGet(), math.max)
          try sleep(60_000)
          finally live.decrementAndGet()
        sleep(5)
      .schedule(Every(1, 5)).run.await
    assertEquals(live.get, 0)
    assertEquals(peak.get, 1)

  test("cancelling an unbounded task stops further repetitions and frees its timer"):
    val before = pendingTimers
    val b = Body()
    Async.blocking:
      Async.group:
        val f = Task(b()).schedule(Every(10)).run
        awaitCondition("three runs")(b.runs.get >= 3)
        f.cancel()
        assert(f.result.failed.get.isInstanceOf[CancellationException])
      val stopped = b.runs.get
      sleep(60)
      assertEquals(b.runs.get, stopped)
    assert(pendingTimers <= before, s"pending $pendingTimers > $before")

  test("cancelling RepeatUntilSuccess is not a failure to retry"):
    val runs = AtomicInteger()
    Async.blocking:
      Async.group:
        val f = Task { runs.incrementAndGet(); sleep(60_000) }
          .schedule(RepeatUntilSuccess())
          .run
        awaitCondition("first run")(runs.get == 1)
        f.cancel()
      sleep(30)
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
    import scala.concurrent.duration.*
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
