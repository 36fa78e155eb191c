package weft

import scala.concurrent.duration.*
import weft.*
import weft.testing.TimeTesting.*

/**
 * Timers on the shared timer thread hold no thread each: a property of the real timer that
 * virtual time cannot show (the timers' other tests run on virtual time: `TimerSuite`, in the
 * test kit's module).
 */
class TimerThreadsSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("100,000 pending timers use no extra thread, and cancelling frees them all"):
    val threadsBefore = platformThreads
    val pendingBefore = pendingTimers
    val timers = Array.fill(100_000)(Timer(10.minutes))
    assert(pendingTimers >= pendingBefore + 100_000, s"pending: $pendingTimers")
    val threadsAfter = platformThreads
    assert(threadsAfter - threadsBefore <= 2, s"threads went from $threadsBefore to $threadsAfter")
    timers.foreach(_.cancel())
    assert(pendingTimers <= pendingBefore, s"pending after cancel: $pendingTimers")
    assert(timers.forall(_.poll().contains(false)))
