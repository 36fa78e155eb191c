package weft.keyed

import java.util.concurrent.CancellationException
import scala.concurrent.duration.{DurationInt, FiniteDuration}
import weft.{Async, Cancellable, CompletionGroup, Future}
import weft.internal.keyed.{DeadEntries, KeyTable, KeyedTask, Lane, ReadyWork, WorkerPool}
import weft.internal.async.Cancellation

/**
 * A keyed sequential executor: tasks with the same key run one at a time, in the order they were
 * submitted; tasks with different keys run concurrently and never wait for each other.
 *
 * {{{
 * Async.blocking:
 *   val accounts = Sequentially[AccountId]()
 *   val balance = accounts.run(id)(ledger.credit(id, 10))    // direct style: waits, returns
 *   val later = accounts.submit(id)(ledger.debit(id, 5))     // asynchronous: a Future
 *   later.await
 * }}}
 *
 * ==Guarantees==
 *   - Per-key FIFO: a key's tasks run in the order of their submission (program order from one
 *     thread; one consistent linear order across threads), never two at a time.
 *   - Independence: a slow or blocked task delays only later tasks of its own key.
 *   - A failing task fails only its own future (or `run` call); the key's next tasks run.
 *   - Cancelling a pending task's future removes it without running it; cancelling a running
 *     one interrupts it (and cancels the futures its body started). The key's queue continues.
 *   - Bounded memory: a key with nothing queued or running leaves no state behind (see
 *     [[activeKeys]]). At most `maxPendingPerKey` tasks wait behind a key's running task; a
 *     further `run`/`submit` waits for room (backpressure): tasks are never dropped.
 *
 * ==Where bodies run==
 * `run` on an idle key runs the body at once on the caller's own thread (no hand-off); otherwise,
 * and for `submit`, a body runs on a worker: a virtual thread of a pool that grows with the work
 * and shrinks when idle (a worker waits [[Sequentially.DefaultIdleWorkerKeepAlive]], 1 second,
 * before it exits). A body that blocks therefore blocks one virtual thread only.
 *
 * ==Defaults==
 * `Sequentially[K]()` lets at most 1024 tasks ([[Sequentially.DefaultMaxPendingPerKey]]) wait
 * behind a key's running task; `Sequentially[K](maxPendingPerKey = n)` changes it.
 *
 * ==Lifecycle==
 * Created inside a scope (`Async.blocking`, `Async.group`, a future's body), it belongs to it:
 * its workers are members of that scope, joined when it ends. When the scope ends, the executor
 * is cancelled ([[cancel]]), whichever member the scope cancels first, with one outcome: every
 * task not yet completed completes with a `CancellationException`. A pending task never runs; a
 * running task's future completes with the `CancellationException` at once, then its body is
 * interrupted and the scope waits for it to end (its result, or the `InterruptedException` it
 * throws, is discarded). Await the futures you need before the scope ends. [[close]] stops
 * intake earlier and lets queued tasks finish; [[cancelPending]] drops those not yet started.
 *
 * A task offered once its scope is ending (or has ended) is refused with a
 * `CancellationException`, like the tasks the executor had queued, so the work a scope being
 * cancelled still submits during its shutdown ends as cancelled and is never reported as a
 * failure; so is a task offered to a closed executor by a caller that is being cancelled. A
 * live caller of an executor closed on purpose ([[close]], or [[cancel]] while its scope goes
 * on) gets a [[SequentiallyClosedException]].
 *
 * A task must not `run` a task of its own key and wait for it: it would wait for itself.
 *
 * @tparam K
 *   the key type; keys are compared with `equals`/`hashCode`
 */
final class Sequentially[K] private (maxPendingPerKey: Int, keepAliveNanos: Long, scope: Async)
    extends Cancellable:
  // How it works. A key with queued or running tasks has an entry in a lock-free map
  // (`KeyTable`); tasks that come while one is in flight queue behind it (a `Lane`), and when the
  // key runs dry its entry leaves the map, so idle keys cost nothing. `run` on an idle key runs
  // the body on the caller's fiber; `submit` hands the task to the elastic `WorkerPool`. The
  // algorithm is explained in the files of `weft.internal.keyed` and in ADR 0004.

  private val lanes = KeyTable[K]()
  private val retired = DeadEntries(entry => lanes.remove(entry))
  private val pool = WorkerPool(scope, keepAliveNanos, retired, drain, () => cancel())
  @volatile private var closed = false
  @volatile private var shutdown = false

  /**
   * Runs `body` after every earlier task of `key` and returns its value, or throws its
   * exception. On an idle key the body runs at once on the caller's thread; otherwise the caller
   * waits for its turn (and, if the key's queue is full, for room in it first).
   *
   * If the caller is cancelled while waiting, its task is cancelled (interrupted if running)
   * within the caller's `cancel()`: a task still queued then never runs. A body running inline
   * on the caller's thread is never pending: cancelling the caller interrupts it. A caller
   * already cancelled gets a `CancellationException` and its body does not run. Futures
   * started by `body` are cancelled and joined when it ends.
   *
   * @throws SequentiallyClosedException
   *   if the executor is closed
   * @throws java.util.concurrent.CancellationException
   *   if the executor's scope is ending, or it is closed and the caller is being cancelled (see
   *   "Lifecycle")
   */
  def run[T](key: K)(body: Async ?=> T)(using async: Async): T =
    checkKey(key)
    checkOpen()
    val h = KeyTable.spread(key.##)
    if lanes.get(key, h) == null then
      val entry = KeyedTask.inlineEntry(key, h)
      if lanes.putIfAbsent(entry) == null then return runInline(entry, body)
    // The task is a member of the caller's group while the caller waits for it, so cancelling
    // the caller cancels the task synchronously, inside the caller's `cancel()`: a task still
    // queued then can never start, however late the caller's fiber notices its interrupt.
    val task = KeyedTask[T](body, key, h)
    task.link(async.group)
    try
      enqueue(task)
      val result =
        try async.await(task)
        catch
          case e: (CancellationException | InterruptedException) =>
            task.cancel()
            throw e
      result.get
    finally task.unlink()

  /**
   * Queues `body` to run after every earlier task of `key`, on a worker thread, and returns the
   * future of its result. Waits only while the key's queue is full (backpressure).
   *
   * Cancelling the future removes a pending task without running it, or interrupts a running
   * one; the key's later tasks run either way.
   *
   * @throws SequentiallyClosedException
   *   if the executor is closed
   * @throws java.util.concurrent.CancellationException
   *   if the executor's scope is ending, or it is closed and the caller is being cancelled (see
   *   "Lifecycle")
   */
  def submit[T](key: K)(body: Async ?=> T)(using async: Async): Future[T] =
    checkKey(key)
    checkOpen()
    val task = KeyedTask[T](body, key, KeyTable.spread(key.##))
    enqueue(task)
    task

  /**
   * Stops accepting tasks: later `run`/`submit` calls (and those waiting for room) throw
   * [[SequentiallyClosedException]]. Tasks already queued still run. Idempotent.
   */
  def close(): Unit =
    closed = true
    lanes.foreach: entry =>
      val lane = entry.lane
      if lane != null then lane.wakeAllWaiters()

  /** Cancels every queued task that has not started yet; running tasks go on. */
  def cancelPending(): Unit =
    lanes.foreach: entry =>
      entry.cancelIfPending()
      val lane = entry.lane
      if lane != null then lane.cancelTasks(running = false)

  /**
   * Shuts the executor down now: closes it, cancels pending tasks (they never run), cancels
   * running ones (their futures complete with a `CancellationException` at once and their bodies
   * are interrupted) and stops its workers. Called when the owning scope ends; idempotent.
   */
  def cancel(): Unit =
    if !shutdown then
      closed = true
      shutdown = true
      lanes.foreach: entry =>
        entry.cancel()
        val lane = entry.lane
        if lane != null then
          lane.wakeAllWaiters()
          lane.cancelTasks(running = true)
      pool.stop()
    unlink()

  /** Whether [[close]] (or [[cancel]]) has been called. */
  def isClosed: Boolean = closed

  /** The number of keys with tasks queued or running; 0 when all work is done. */
  def activeKeys: Int = lanes.size

  /**
   * The number of entries the key map holds, including dead ones not yet removed (at most a
   * batch per worker while work goes on; none once the workers are idle): for tests.
   */
  private[weft] def retainedLanes: Int = lanes.retained

  /** The number of worker threads alive (busy, searching or idle): for tests and monitoring. */
  def workerCount: Int = pool.liveWorkers

  private def checkKey(key: K): Unit =
    if key == null then throw IllegalArgumentException("Sequentially: the key must not be null")

  /**
   * Refuses a task once the executor is closed. Work a scope that is being cancelled submits
   * during the shutdown (a handler's `finally`, a task racing the scope's end) ends as cancelled,
   * as the executor's pending tasks do, not as a failure that would be reported as unobserved
   * (`SequentiallyQuietShutdownSuite`); only a live caller of an executor closed on purpose gets
   * the [[SequentiallyClosedException]].
   */
  private def checkOpen()(using async: Async): Unit =
    if closed then
      if (shutdown && scope.group.isCancelled) || async.cancellationPending then
        throw CancellationException("Sequentially was cancelled: its scope is ending")
      throw SequentiallyClosedException()

  /**
   * Admits `task` for its key: installs it as the key's entry (and hands it to the pool) if the
   * key is idle, attaches a lane holding it to a lone entry, or queues it in the entry's lane.
   */
  private def enqueue(task: KeyedTask[?])(using Async): Unit =
    var placed = false
    while !placed do
      checkOpen()
      // one walk of the table: install the task, or find the key's live entry
      val entry = lanes.putIfAbsent(task)
      if entry == null then
        pool.activate(task)
        placed = true
      else
        val lane = entry.lane
        if lane == null then placed = entry.attach(Lane.following(entry, task))
        else
          lane.tryAdmit(maxPendingPerKey) match
            case Lane.Admitted =>
              lane.push(task)
              placed = true
            case Lane.Retired => lanes.remove(entry)
            case _            => lane.awaitRoom(maxPendingPerKey)
    retired.sweep()
    if shutdown then task.cancel()

  /** The fast path of `run`: the caller holds `entry`'s baton and runs `body` itself. */
  private def runInline[T](entry: KeyedTask[Unit], body: Async ?=> T)(using async: Async): T =
    val g = CompletionGroup()
    try
      Cancellation.check("Sequentially.run")
      body(using async.withGroup(g))
    finally
      g.cancel()
      g.waitCompletion()
      val lane = entry.afterRun()
      if lane == null then lanes.remove(entry) else pool.activate(lane)
      retired.sweep()

  /** Runs a lone entry or a lane's tasks, for a worker holding the baton (see [[drainLane]]). */
  private def drain(work: ReadyWork, retiring: DeadEntries#Batch): Int =
    work match
      case entry: KeyedTask[?] => runEntry(entry, retiring)
      case lane: Lane          => drainLane(lane, retiring)

  /**
   * Runs `entry`, the key's first task, then retires the key (the entry goes into the worker's
   * batch `retiring`, see [[DeadEntries]]) or, if a lane came meanwhile, drains the lane.
   */
  private def runEntry(entry: KeyedTask[?], retiring: DeadEntries#Batch): Int =
    runOrDiscard(entry)
    val lane = entry.afterRun()
    if lane == null then
      retiring.add(entry)
      1
    else 1 + drainLane(lane, retiring)

  /**
   * Runs `lane`'s tasks while it holds work (the caller holds the baton), then puts its dead
   * owner entry into the worker's batch `retiring`, and returns how many ran.
   */
  private def drainLane(lane: Lane, retiring: DeadEntries#Batch): Int =
    var ran = 0
    var more = true
    while more do
      runOrDiscard(lane.take())
      ran += 1
      if lane.finishOne() then
        retiring.add(lane.owner.nn)
        more = false
    ran

  /** Runs `task` on this worker; once the executor is shut down, discards (cancels) it instead. */
  private def runOrDiscard(task: KeyedTask[?]): Unit =
    if shutdown then task.discard() else task.runOn(scope)

/** Creating a [[Sequentially]]. */
object Sequentially:

  /**
   * The default bound on the tasks waiting behind a key's running task: 1024. Beyond it, `run`
   * and `submit` for that key wait for room (backpressure); other keys are not affected.
   */
  val DefaultMaxPendingPerKey: Int = 1024

  /** The default time an idle worker thread waits for work before it exits: 1 second. */
  val DefaultIdleWorkerKeepAlive: FiniteDuration = 1.second

  /**
   * A new executor belonging to the current scope (see the class comment).
   *
   * @param maxPendingPerKey
   *   how many tasks may wait behind a key's running task before `run`/`submit` wait (>= 1;
   *   1024 unless given)
   * @param idleWorkerKeepAlive
   *   how long an idle worker thread is kept for reuse before it exits (>= 0; 1 second unless
   *   given)
   * @throws IllegalArgumentException
   *   if a parameter is out of range
   */
  def apply[K](
      maxPendingPerKey: Int = DefaultMaxPendingPerKey,
      idleWorkerKeepAlive: FiniteDuration = DefaultIdleWorkerKeepAlive
  )(using async: Async): Sequentially[K] =
    if maxPendingPerKey < 1 then
      throw IllegalArgumentException(s"maxPendingPerKey must be >= 1, got $maxPendingPerKey")
    if idleWorkerKeepAlive.length < 0 then
      throw IllegalArgumentException(s"idleWorkerKeepAlive must be >= 0, got $idleWorkerKeepAlive")
    val s = new Sequentially[K](maxPendingPerKey, idleWorkerKeepAlive.toNanos, async)
    s.link(async.group)
    s
