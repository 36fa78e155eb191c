package weft.resilience

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicLong
import scala.concurrent.duration.FiniteDuration
import scala.util.Success
import weft.{Async, Promise, await}

/**
 * A clock the test moves by hand: time stands still until [[advance]], and a sleeper wakes when
 * the time passes its deadline. So a limiter's or breaker's state machine is checked step by step
 * without sleeping.
 */
final class ManualClock extends Clock:
  private val now = AtomicLong(1_000_000_000L)
  private val sleepers = ConcurrentLinkedQueue[(Long, Promise[Unit])]()

  def nanoTime(): Long = now.get

  def sleepNanos(nanos: Long)(using Async): Unit =
    val entry = (now.get + nanos, Promise[Unit]())
    sleepers.add(entry)
    wakeDue()
    try entry._2.future.await
    finally sleepers.remove(entry): Unit

  /** Moves the time forward by `d` and wakes the sleepers now due. */
  def advance(d: FiniteDuration): Unit =
    now.addAndGet(d.toNanos)
    wakeDue()

  /** Fibers sleeping on this clock now. */
  def sleeping: Int = sleepers.size

  private def wakeDue(): Unit =
    sleepers.forEach: (deadline, p) =>
      if now.get - deadline >= 0 then p.tryComplete(Success(())): Unit
