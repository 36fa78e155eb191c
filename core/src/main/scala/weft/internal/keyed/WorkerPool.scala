package weft
package internal.keyed

import weft.keyed.*

import java.util.concurrent.ConcurrentLinkedDeque
import java.util.concurrent.atomic.{AtomicInteger, AtomicIntegerArray}
import weft.{Async, Cancellable}
import weft.runtime.Fiber
import weft.internal.runtime.CacheLine

/**
 * An elastic pool of worker fibers (virtual threads) that run the keys of a [[Sequentially]].
 * The unit of work, called a lane below, is what holds a key's baton: a lone entry task (the
 * worker runs it, then the lane attached to it meanwhile, if any) or a [[Lane]] handed over by
 * a `run` caller.
 *
 * ==Why elastic==
 * A task may block for long (IO, a sleep, a lock). A fixed pool would let a few slow keys hold
 * every worker and delay all other keys, which is exactly the flaw of bucketed designs. So the
 * pool grows as needed: a lane becoming ready is never left waiting behind a running task.
 * Workers are cheap virtual threads, idle ones are kept for a while (`keepAliveNanos`) to be
 * reused, and all of them are members of the scope that created the [[Sequentially]].
 *
 * ==Scope end==
 * A worker is a plain [[Cancellable]] member of that scope (not a `Future`): the scope joins its
 * fiber, but cancelling it never interrupts the fiber directly. It calls `cancelOwner` (the
 * executor's `cancel`), which cancels the tasks first and then stops the pool. So a running task
 * ends with its own `CancellationException` whatever order the scope cancels its members in,
 * and the only interrupt a worker fiber ever receives is a task's (cleared after the task).
 *
 * ==Algorithm (in the style of work-searching schedulers)==
 * Lanes ready to run go into one lock-free queue, `ready` (a [[ReadyQueue]]). `searching`
 * counts the workers that are looking for work, or have been woken or spawned to look. A
 * worker:
 *   1. polls `ready` (without spinning, see "Not spinning for work");
 *   1. on taking a lane, stops searching; if it was the last searcher and more lanes are ready,
 *      it wakes (or spawns) another searcher before draining, so a ready lane never waits for a
 *      task that may be slow;
 *   1. drains the lane (runs its tasks until it retires; the key's dead entry goes into the
 *      worker's batch of [[DeadEntries]]), then searches again;
 *   1. finding nothing, hands its batch of dead entries over, stops searching, re-checks
 *      `ready`, and parks as idle (in `idle`), until woken or its keep-alive expires (then it
 *      exits); if dead entries are still waiting after `SweepDelayNanos`, it removes them.
 * Activating a lane is: offer it to `ready`; if no worker is searching, wake an idle one or spawn
 * one. A searcher stops searching (decrement) before its final check of `ready`, while an
 * activator offers before reading `searching`; so either the activator sees no searcher and
 * wakes one, or the searcher's final check sees the lane. Nothing ready is ever stranded.
 *
 * ==Sharing the carriers==
 * Virtual threads are never preempted, and a worker that keeps finding work never parks. With
 * as many busy workers as carriers, the fibers that submit tasks would not run until the
 * workers ran dry: producer and workers would alternate instead of working in parallel. So a
 * worker yields its carrier between lanes, while it counts as searching (so no extra worker is
 * woken for it), once it has run `YieldEvery` tasks and `YieldIntervalNanos` have passed since
 * its last yield. A yield costs microseconds (the fiber leaves its carrier and is scheduled
 * again), so yielding often is dear with all-distinct keys, where one worker keeps up alone. The
 * sequentially-hot-keys and
 * sequentially-batch-1000 benchmarks re-check both sides; figures in docs/perf/keyed.md.
 *
 * ==Not spinning for work==
 * A worker that finds `ready` empty goes idle at once. Spinning there kept it running on the
 * other core while the submitting fiber was still activating lanes, so it took each lane the
 * moment it appeared and every task, lane and queue node crossed cores: with all-distinct keys
 * that hand-off is most of the cost (the same code ran far faster on one carrier than on
 * two). An idle worker is woken by `unpark` from the activating fiber, which is consistent
 * with the JDK's scheduler queueing an unparked virtual thread on the unparking carrier first:
 * the worker then often runs after the submitter on the same core and drains the lanes it left
 * from a warm cache. The sequentially-batch-1000, -hot-keys and -io benchmarks re-check it;
 * figures in docs/perf/keyed.md.
 *
 * ==Taking the next lane==
 * A worker that has drained a lane polls `ready` once more before it counts itself as searching
 * again, and runs the lane it finds at once: a backlog of lanes then costs no write of the
 * shared `searching` count per lane (two per lane before, a visible share of the profile with
 * all-distinct keys). Nothing ready is stranded by it: such a worker only removes lanes from
 * `ready`, and every lane left there is covered as before, by the searcher its activator saw
 * or the worker it woke (a searcher that takes a lane re-checks `ready`, and one that finds
 * none re-checks it after it stops searching).
 *
 * An idle worker's state goes `ACTIVE -> IDLE` (itself, before parking) and back `IDLE ->
 * ACTIVE` by exactly one waker, or `IDLE -> EXITED` by itself on keep-alive expiry; the CAS
 * decides between waking and exiting. A waker skips entries of `idle` that are not `IDLE`.
 */
private[weft] final class WorkerPool(
    scope: Async,
    keepAliveNanos: Long,
    retired: DeadEntries,
    drain: (ReadyWork, DeadEntries#Batch) => Int,
    cancelOwner: () => Unit
):
  import WorkerPool.*

  /** ReadyWork ready to run: lone entries ([[KeyedTask]]) and [[Lane]]s, whose baton comes with them. */
  private val ready = ReadyQueue()
  private val idle = ConcurrentLinkedDeque[Worker]()

  /**
   * The count of searching workers, alone on its cache line: the middle slot of an array, with
   * 64 bytes of unused slots on each side (see [[Searching]]). Every activation reads it and
   * every lane taken writes it; sharing a line with the queue's ends cost a miss more per task.
   */
  private val searching = Searching()
  private val live = AtomicInteger()
  @volatile private var shutdown = false

  /**
   * Makes `work` run on a worker: a lone entry task, or a lane whose baton the caller hands
   * over (the pool passes it to `drain`).
   */
  def activate(work: ReadyWork): Unit =
    ready.offer(work)
    if searching.get() == 0 then wakeOrSpawn()

  /** The number of worker fibers alive (running, searching or idle). */
  def liveWorkers: Int = live.get()

  /** Stops the pool: idle workers wake and exit; busy ones exit after their lane. */
  def stop(): Unit =
    shutdown = true
    var w = idle.pollFirst()
    while w != null do
      w.wakeForShutdown()
      w = idle.pollFirst()

  private def wakeOrSpawn(): Unit =
    searching.incrementAndGet()
    var done = false
    while !done do
      val w = idle.pollFirst()
      if w == null then
        spawn()
        done = true
      else done = w.tryWake()

  private def spawn(): Unit =
    if shutdown then searching.decrementAndGet()
    else
      val w = Worker()
      live.incrementAndGet()
      try
        w.link(scope.group)
        scope.support.start(w)
      catch
        case e: Throwable =>
          w.unlink()
          live.decrementAndGet()
          searching.decrementAndGet()
          throw e

  /**
   * One worker fiber, a member of the scope (see "Scope end"); its value is its state (`ACTIVE`,
   * `IDLE`, `EXITED`).
   */
  private final class Worker extends AtomicInteger(ACTIVE), Cancellable, Runnable:
    @volatile private var fiber: Fiber | Null = null
    private val retiring = new retired.Batch

    /** The scope is ending: shut the executor down (tasks first, then the pool). */
    def cancel(): Unit = cancelOwner()

    /** Its fiber leaves the scope's group when it exits: the scope's join waits for it. */
    override private[weft] def leavesByItself: Boolean = true

    def tryWake(): Boolean =
      if compareAndSet(IDLE, ACTIVE) then
        fiber.nn.unpark()
        true
      else false

    def wakeForShutdown(): Unit =
      val f = fiber
      if f != null then f.nn.unpark()

    def run(): Unit =
      val self = Fiber.current
      fiber = self
      try loop()
      finally
        retiring.flush()
        retired.sweep()
        live.decrementAndGet()
        unlinkExiting(self)

    private def loop(): Unit =
      def stopping: Boolean = shutdown
      var running = true
      var sinceYield = 0
      // Real time on purpose, here and in parkIdle: how long a worker runs before it yields its
      // carrier, and how long an idle worker's thread is kept, are about the machine's threads,
      // not about the program's timers, so a test kit's virtual time does not apply.
      var lastYield = System.nanoTime()
      while running && !stopping do
        var lane = poll()
        if lane != null then
          if searching.decrementAndGet() == 0 && !ready.isEmpty then wakeOrSpawn()
          var yieldDue = false
          while lane != null do
            sinceYield += drain(lane.nn, retiring)
            if sinceYield >= YieldEvery then
              sinceYield = 0
              val now = System.nanoTime()
              if now - lastYield >= YieldIntervalNanos then
                lastYield = now
                yieldDue = true
            // A busy worker takes its next lane without counting itself as searching (see
            // "Taking the next lane"), unless it is due to yield or the executor is stopping.
            lane = if yieldDue || stopping then null else ready.poll()
          searching.incrementAndGet()
          if yieldDue then Fiber.yieldNow()
        else
          retiring.flush()
          searching.decrementAndGet()
          if !ready.isEmpty then searching.incrementAndGet()
          else running = parkIdle(() => stopping)
      if running then searching.decrementAndGet()

    /** Polls `ready` once: a worker never spins on it (see "Not spinning for work"). */
    private def poll(): ReadyWork | Null = ready.poll()

    /** Parks as idle; `true` if woken to search (already counted), `false` to exit. */
    private def parkIdle(stopping: () => Boolean): Boolean =
      set(IDLE)
      idle.push(this)
      val deadline = System.nanoTime() + keepAliveNanos
      var swept = false
      var result = 0
      while result == 0 do
        if get() == ACTIVE then result = 1
        else if stopping() || deadline - System.nanoTime() <= 0 then
          if compareAndSet(IDLE, EXITED) then
            idle.remove(this)
            result = -1
        else if !swept && retired.pending then
          // The next submission would remove them; if none comes soon, the work has stopped
          // and no dead entry may stay in the table: remove them here.
          Fiber.parkNanos(this, math.min(SweepDelayNanos, deadline - System.nanoTime()))
          if get() == IDLE then
            retired.sweep()
            swept = true
        else Fiber.parkNanos(this, deadline - System.nanoTime())
      result == 1

private[weft] object WorkerPool:

  /** An atomic counter on a cache line of its own (see `CacheLine`). */
  final class Searching:
    private val slots = AtomicIntegerArray(CacheLine.arrayLength(1, 4))

    /** The count (a volatile read). */
    def get(): Int = slots.get(At)

    /** Adds one; returns the new count. */
    def incrementAndGet(): Int = slots.incrementAndGet(At)

    /** Subtracts one; returns the new count. */
    def decrementAndGet(): Int = slots.decrementAndGet(At)

  private inline def At: Int = CacheLine.slot(0, 4)

  inline val ACTIVE = 0
  inline val IDLE = 1
  inline val EXITED = 2

  /** Tasks a worker runs before it yields its carrier (see "Sharing the carriers"). */
  inline val YieldEvery = 32

  /** The least time between two yields of a worker (see "Sharing the carriers"): 50 µs. */
  inline val YieldIntervalNanos = 50_000L

  /** How long an idle worker leaves dead entries to the submitters before it removes them. */
  inline val SweepDelayNanos = 200_000L
