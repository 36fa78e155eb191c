package weft.runtime

import java.util.concurrent.{ScheduledFuture, ScheduledThreadPoolExecutor, ThreadFactory, TimeUnit}
import weft.internal.runtime.TimerSlack

/**
 * How weft starts the threads of futures and runs timers: every `Async` context carries one
 * (`summon[Async].support`). [[AsyncSupport.default]], virtual threads plus one shared timer
 * thread, is the one weft ships and uses everywhere.
 */
trait AsyncSupport:
  // The layers above `weft.runtime` use only this trait and `Fiber`, so that another runtime can
  // replace this package alone.

  /** Starts `body` on a new fiber and returns it. The fiber is started before this returns. */
  def start(body: Runnable): Fiber

  /** The one timer facility shared by every timer, sleep and timeout. */
  def scheduler: Scheduler

  /** The time [[scheduler]]'s delays are measured on, and every time read of weft's. */
  def clock: Clock

/** Runs delayed work. Tasks must be short and must not block: they complete promises. */
trait Scheduler:

  /** Runs `task` after `delayNanos` (>= 0); the returned handle cancels it if not yet run. */
  def schedule(delayNanos: Long, task: Runnable): Scheduler.Cancel

  /**
   * The number of tasks scheduled and neither run nor cancelled yet (a diagnostic, e.g. to check
   * that cancelled timers are freed); may be approximate while tasks are being added.
   */
  def pendingCount: Int

/** Handles returned by a [[Scheduler]]. */
object Scheduler:

  /** Cancels a scheduled task; returns true if it had not yet run. */
  trait Cancel:
    /** Cancels the task if it has not run yet; returns whether it was cancelled by this call. */
    def cancel(): Boolean

/** The JVM support: one virtual thread per fiber, one daemon platform thread for all timers. */
object AsyncSupport:

  /** The support used by `Async.blocking` unless told otherwise. */
  val default: AsyncSupport = VirtualThreads

  /**
   * The support of the calling fiber, for code that has no `Async` at hand (a timer or a rate
   * limiter being built): the support of the [[FiberDomain]] the fiber belongs to (a test kit's
   * virtual time), else [[default]].
   */
  def current: AsyncSupport = FiberDomain.supportOfCurrent(default)

  /**
   * Virtual threads, made by one shared factory. They are unnamed, like
   * `Thread.startVirtualThread`: a name costs a string per thread, retained by every pending
   * future (the memory-pending-100k workload re-checks it; docs/perf/core.md).
   */
  object VirtualThreads extends AsyncSupport:
    private val factory: ThreadFactory = Thread.ofVirtual().factory()

    def start(body: Runnable): Fiber =
      val t = factory.newThread(body)
      t.start()
      Fiber.ofThread(t)

    val scheduler: Scheduler = TimerScheduler

    def clock: Clock = Clock.system

  /**
   * A single-thread scheduled executor: O(log n) per timer, no thread per timer; cancelled
   * timers are removed at once so they do not pin memory. Its thread asks for a small timer
   * slack first (see [[TimerSlack]]), so that timers ring close to their deadline.
   */
  private object TimerScheduler extends Scheduler:
    private val executor =
      TimerSlack.configured // a bad property value fails here, not on the timer thread
      val ex = new ScheduledThreadPoolExecutor(
        1,
        (r: Runnable) =>
          val body: Runnable = () =>
            TimerSlack.applyToCurrentThread()
            r.run()
          val t = new Thread(body, "weft-timer")
          t.setDaemon(true)
          t
      )
      ex.setRemoveOnCancelPolicy(true)
      ex.setExecuteExistingDelayedTasksAfterShutdownPolicy(false)
      ex

    def schedule(delayNanos: Long, task: Runnable): Scheduler.Cancel =
      require(delayNanos >= 0, s"delay must be >= 0, got $delayNanos ns")
      val f: ScheduledFuture[?] = executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS)
      () => f.cancel(false)

    def pendingCount: Int = executor.getQueue.size
