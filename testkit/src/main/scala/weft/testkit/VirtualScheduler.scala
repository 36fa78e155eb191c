package weft.testkit

import java.util.PriorityQueue
import weft.runtime.{Clock, Scheduler}

/**
 * The timers and the clock of a virtual-time scope: a queue of tasks ordered by due time (then
 * by scheduling order), and a time that moves only when the [[Driver]] says so. Tasks run on the
 * driver's thread, never while a fiber of the scope can run.
 */
private[testkit] final class VirtualScheduler extends Scheduler, Clock:
  import VirtualScheduler.*

  private val queue = PriorityQueue[Entry]()
  private var seq = 0L
  @volatile private var elapsed = 0L

  /** Virtual nanoseconds since the scope started. */
  def elapsedNanos: Long = elapsed

  /** The virtual time, offset so that it is never near zero (some code reads 0 as "unset"). */
  def nanoTime(): Long = Origin + elapsed

  def schedule(delayNanos: Long, task: Runnable): Scheduler.Cancel =
    require(delayNanos >= 0, s"delay must be >= 0, got $delayNanos ns")
    synchronized:
      val due = if delayNanos > Long.MaxValue - elapsed then Long.MaxValue else elapsed + delayNanos
      val e = Entry(due, seq, task)
      seq += 1
      queue.add(e)
      () => synchronized(queue.remove(e))

  /** How many tasks are pending. */
  def pendingCount: Int = synchronized(queue.size)

  /** Drops every pending task: the scope is over, its time will never come. */
  def clear(): Unit = synchronized(queue.clear())

  /** When the earliest task is due (elapsed nanoseconds), or `None` if none is pending. */
  def nextDue: Option[Long] = synchronized(Option(queue.peek()).map(_.due))

  /**
   * Moves the time to `to` (not before now) and runs every task due by then, in due order; a
   * task scheduled by one of them that is due by `to` runs too. Returns how many ran.
   */
  def advanceTo(to: Long): Int =
    var ran = 0
    synchronized(if to > elapsed then elapsed = to)
    var next = takeDue(to)
    while next != null do
      ran += 1
      try next.nn.task.run()
      catch case e: Throwable => weft.runtime.Fiber.reportUncaught(e)
      next = takeDue(to)
    ran

  private def takeDue(to: Long): Entry | Null = synchronized:
    val e = queue.peek()
    if e != null && e.due <= to then queue.poll() else null

private[testkit] object VirtualScheduler:

  /** Where virtual `nanoTime` starts: 2^40 ns, about 18 minutes. */
  val Origin: Long = 1L << 40

  final class Entry(val due: Long, val seq: Long, val task: Runnable) extends Comparable[Entry]:
    def compareTo(o: Entry): Int =
      val c = java.lang.Long.compare(due, o.due)
      if c != 0 then c else java.lang.Long.compare(seq, o.seq)
