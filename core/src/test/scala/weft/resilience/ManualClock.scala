package weft.resilience

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import scala.concurrent.duration.FiniteDuration
import scala.util.Success
import weft.{Async, Promise, await}

/**
 * A clock the test moves by hand: time stands still until [[advance]], which runs the timers
 * and wakes the sleepers now due. For the tests that control their threads themselves (the
 * lincheck model, the pinned interleavings of `RateLimiterOrderSuite`); the limiters' and
 * breakers' state machines are checked on the test kit's virtual time instead.
 */
final class ManualClock extends Clock:
  private val now = AtomicLong(1_000_000_000L)
  private val timers = ConcurrentLinkedQueue[(Long, Runnable)]()
  private val sleepers = AtomicInteger()

  def nanoTime(): Long = now.get

  def sleepNanos(nanos: Long)(using Async): Unit =
    val p = Promise[Unit]()
    // The timer is registered before the sleeper is counted: a test that waits for `sleeping`
    // and then calls `advance` must find the timer in place, or it is scheduled from the moved
    // clock and never rings (RateLimiterSuite, "acquire suspends until the permit ...").
    schedule(nanos, () => p.tryComplete(Success(())): Unit)
    sleepers.incrementAndGet()
    try p.future.await
    finally sleepers.decrementAndGet(): Unit

  def schedule(nanos: Long, task: Runnable): Unit =
    timers.add((now.get + nanos, task))
    runDue()

  /** Moves the time forward by `d`, then runs the timers due, earliest first. */
  def advance(d: FiniteDuration): Unit =
    now.addAndGet(d.toNanos)
    runDue()

  /** Fibers sleeping on this clock now. */
  def sleeping: Int = sleepers.get

  /** Timers not yet run. */
  def pending: Int = timers.size

  private def runDue(): Unit =
    var due = timers.stream.filter(t => now.get - t._1 >= 0).sorted((a, b) => a._1.compare(b._1))
      .toList
    due.forEach: t =>
      if timers.remove(t) then t._2.run()
