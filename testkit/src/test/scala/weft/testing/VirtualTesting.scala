package weft.testing

import weft.Async
import weft.runtime.Scheduler

/** Helpers of the suites that run on the test kit's virtual time. */
object VirtualTesting:

  /**
   * The timers pending on the scheduler of the calling scope: inside `VirtualTime.run` those of
   * that scope only, so a count is exact, whatever other suites run meanwhile.
   */
  def scopeTimers(using a: Async): Int = a.support.scheduler.pendingCount

  /**
   * A scheduler over `underlying` that records the delay of each task it is asked for and moves
   * its ring by `shift(k)` nanoseconds (k counts the tasks from 1): a scheduler that rings late
   * (or early), on the virtual clock, so its effect on a schedule is exact.
   */
  final class ShiftingScheduler(underlying: Scheduler, shift: Int => Long) extends Scheduler:
    private val asked = java.util.concurrent.ConcurrentLinkedQueue[Long]()
    def schedule(delayNanos: Long, task: Runnable): Scheduler.Cancel =
      asked.add(delayNanos)
      val moved =
        try Math.addExact(delayNanos, shift(asked.size))
        catch case _: ArithmeticException => Long.MaxValue
      underlying.schedule(math.max(0L, moved), task)
    def pendingCount: Int = underlying.pendingCount

    /** The delays asked for so far, in order. */
    def delays: List[Long] = asked.toArray.toList.map(_.asInstanceOf[Long])
