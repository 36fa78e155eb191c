package weft.testing

import java.lang.management.ManagementFactory
import weft.runtime.AsyncSupport

/** Helpers shared by the time suites: scheduler and thread counts, waiting for a condition. */
object TimeTesting:

  /** Tasks pending in the shared timer scheduler. */
  def pendingTimers: Int = AsyncSupport.default.scheduler.pendingCount

  /** Live platform threads (virtual threads are not counted by the MXBean). */
  def platformThreads: Int = ManagementFactory.getThreadMXBean.getThreadCount

  /**
   * Waits (polling every millisecond) until `cond` holds; fails after `limitMillis` so that a
   * bug hangs no build. A liveness guard only, not a timing assertion.
   */
  def awaitCondition(what: String, limitMillis: Long = 20_000)(cond: => Boolean): Unit =
    val deadline = System.nanoTime() + limitMillis * 1_000_000L
    while !cond do
      if System.nanoTime() - deadline > 0 then throw AssertionError(s"never happened: $what")
      Thread.sleep(1)

  /** Milliseconds elapsed while running `body`, with its value. */
  def timed[T](body: => T): (T, Long) =
    val t0 = System.nanoTime()
    val v = body
    (v, (System.nanoTime() - t0) / 1_000_000L)
