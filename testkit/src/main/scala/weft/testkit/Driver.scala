package weft.testkit

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.locks.LockSupport
import scala.collection.mutable
import scala.util.{Failure, Success, Try}
import weft.{Async, Promise, await}
import weft.runtime.{Fiber, FiberDomain}

/**
 * Runs one virtual-time scope: starts its body on a counted fiber, and on the calling thread
 * moves the clock whenever every fiber of the scope waits (ADR 0029).
 *
 * The loop, each time the last runnable fiber waits (the [[VirtualDomain]] unparks this thread):
 *   1. callers of `runUntilIdle` (and of `advanceBy` whose time has come) are woken, and the
 *      loop waits for idleness again;
 *   2. else the clock jumps to the earliest of the pending timers and the `advanceBy` targets,
 *      and every timer due by then fires (on this thread), which wakes fibers;
 *   3. else nothing can ever wake the fibers: after [[VirtualTimeConfig.deadlockGrace]] with no
 *      change, the scope fails with a [[DeadlockException]].
 * While fibers run, the loop parks in slices; if nothing progresses for
 * [[VirtualTimeConfig.blockedLimit]] and a fiber blocks in a JDK call, the scope fails with a
 * [[BlockedFiberException]]. Failing interrupts the body (and through its scope every future it
 * started); the loop goes on until the body's fiber has ended, so nothing leaks.
 */
private[testkit] final class Driver(config: VirtualTimeConfig):
  import Driver.*

  val scheduler = VirtualScheduler()
  private val domain = VirtualDomain(scheduler, Thread.currentThread(), config)
  private val idleWaiters = ConcurrentLinkedQueue[Promise[Unit]]()
  private val timed = mutable.PriorityQueue.empty[Target](using Ordering.by[Target, Long](-_.at))
  @volatile private var bodyDone = false
  @volatile private var failure: VirtualTimeException | Null = null
  private var lastProgress = -1L
  private var stillSince = 0L
  private var failAttempts = 0
  @volatile private var main: Fiber | Null = null
  private var callerInterrupted = false

  /** Runs `body` in the scope and returns its value, or throws its (or the scope's) failure. */
  def run[T](body: (VirtualClock, Async) ?=> T): T =
    val control = VirtualClock(this)
    var result: Try[T] | Null = null
    domain.open()
    try
      main = domain.startNamed(
        "weft-test-main",
        () =>
          try
            result =
              // `Async.blocking` takes the calling fiber's support: this domain's
              try Success(Async.blocking(a ?=> body(using control, a)))
              catch case e: Throwable => Failure(e)
          finally bodyDone = true
      )
      loop()
    finally
      domain.close()
      // Timers nobody cancelled (a `Timer` left to ring, a rate limiter's window) would stay in
      // the queue of a scope that never moves again: dropped, so nothing outlives the scope.
      scheduler.clear()
    if callerInterrupted then Thread.currentThread().interrupt()
    val f = failure
    if f != null then
      result.nn.failed.foreach(e => if e ne f then f.addSuppressed(e))
      throw f
    result.nn.get

  /** The fibers of the scope still counted (none once [[run]] has returned or thrown). */
  def liveFibers: List[FiberDomain.MemberView] = domain.snapshot()

  /** Waits (as a counted fiber) until every other fiber of the scope waits. */
  def awaitIdle()(using Async): Unit =
    val p = Promise[Unit]()
    idleWaiters.add(p)
    p.future.await

  /** Waits until the clock reads `nanos` more than now and the scope is idle at that time. */
  def awaitAdvance(nanos: Long)(using Async): Unit =
    val p = Promise[Unit]()
    val at = scheduler.elapsedNanos + nanos
    timed.synchronized(timed.enqueue(Target(at, p)))
    p.future.await

  private def loop(): Unit =
    while !(bodyDone && domain.runnableCount == 0) do
      if Thread.interrupted() then onCallerInterrupted()
      if domain.runnableCount > 0 then watchRunning()
      else if !bodyDone then onIdle()

  /**
   * The thread running the scope was interrupted (its own scope cancelled, a test's deadline):
   * the body is interrupted as a root scope's would be, its fibers end as in any cancellation,
   * and the caller's interrupt status is set again when `run` ends. Without this, every park of
   * the loop would return at once and the body would go on in a busy loop.
   */
  private def onCallerInterrupted(): Unit =
    if !callerInterrupted then
      callerInterrupted = true
      if main != null then main.nn.interrupt()

  /** Some fiber runs: park until idle, and check for a fiber blocked in the JDK meanwhile. */
  private def watchRunning(): Unit =
    watch(_.blockedInJdk, onlyWhile = domain.runnableCount > 0)

  /**
   * Parks for a slice (or until idle); if nothing has progressed for the blocked limit (and
   * `onlyWhile` still holds), fails the scope with the members `stuck` picks, if any.
   */
  private def watch(stuck: FiberDomain.MemberView => Boolean, onlyWhile: => Boolean): Unit =
    LockSupport.parkNanos(this, math.min(config.blockedLimit.toNanos, SliceNanos))
    val now = System.nanoTime()
    val p = domain.progress
    if p != lastProgress then
      lastProgress = p
      stillSince = now
    else if onlyWhile && now - stillSince >= config.blockedLimit.toNanos then
      val fibers = domain.snapshot().filter(stuck).map(WaitingFiber.of)
      if fibers.nonEmpty then fail(BlockedFiberException(fibers, config.blockedLimit))
      stillSince = now

  private def onIdle(): Unit =
    if releaseIdleWaiters() then ()
    else
      val nextTimer = scheduler.nextDue
      val nextTarget = timed.synchronized(timed.headOption.map(_.at))
      (nextTimer ++ nextTarget).minOption match
        case Some(at) =>
          scheduler.advanceTo(at)
          timed.synchronized:
            while timed.nonEmpty && timed.head.at <= scheduler.elapsedNanos do
              idleWaiters.add(timed.dequeue().promise)
        case None =>
          if domain.outsideCount > 0 then watchOutside() else maybeDeadlock()

  /**
   * Idle, nothing pending, but fibers wait on the outside world: wait for it in slices, and fail
   * if nothing progresses for the blocked limit.
   */
  private def watchOutside(): Unit = watch(_.waitingOutside, onlyWhile = true)

  private def releaseIdleWaiters(): Boolean =
    var any = false
    var p = idleWaiters.poll()
    while p != null do
      any = true
      p.success(())
      p = idleWaiters.poll()
    any

  /** Idle with nothing pending: wait the grace period, then fail if still nothing changed. */
  private def maybeDeadlock(): Unit =
    val before = domain.progress
    val graceEnd = System.nanoTime() + config.deadlockGrace.toNanos
    while domain.runnableCount == 0 && domain.progress == before &&
      System.nanoTime() - graceEnd < 0 && !bodyDone && !Thread.currentThread().isInterrupted
    do LockSupport.parkNanos(this, math.max(1L, graceEnd - System.nanoTime()))
    val quiet = domain.runnableCount == 0 && domain.progress == before && !bodyDone &&
      scheduler.nextDue.isEmpty && idleWaiters.isEmpty && timed.synchronized(timed.isEmpty)
    if quiet then
      val at = scala.concurrent.duration.FiniteDuration(scheduler.elapsedNanos, "ns")
      fail(DeadlockException(at, domain.snapshot().map(WaitingFiber.of)))

  /**
   * Records the scope's failure (the first one) and interrupts the body's fiber: its wait throws,
   * and its scope cancels and joins the futures it started (cancelled, so their failures are
   * not reported as lost). If the scope is still stuck at the next detection (a fiber swallowed
   * the interrupt, or waits on something its cancellation does not end), every fiber of the
   * scope is interrupted.
   */
  private def fail(e: VirtualTimeException): Unit =
    if failure == null then failure = e
    failAttempts += 1
    if failAttempts == 1 && main != null then main.nn.interrupt() else domain.interruptAll()
    if failAttempts > MaxFailAttempts then
      throw IllegalStateException(
        s"weft-testkit: the scope's fibers did not end after $MaxFailAttempts interrupts",
        failure
      )

private[testkit] object Driver:

  /** How long the loop parks at most while fibers run, between checks for a blocked fiber. */
  val SliceNanos: Long = 50_000_000L

  /** How many times a failed scope's fibers are interrupted before the kit gives up on them. */
  val MaxFailAttempts = 20

  /** An `advanceBy` waiting for the clock to reach `at`. */
  final case class Target(at: Long, promise: Promise[Unit])
