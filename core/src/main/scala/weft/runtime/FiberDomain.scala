package weft.runtime

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.locks.LockSupport

/**
 * A set of fibers whose waits are counted, so that a test kit knows when every one of them waits
 * on weft and none can run: the idle detection of `weft-testkit`'s virtual time (ADR 0029).
 *
 * A member is counted runnable from the moment [[start]] is called until it parks in a weft wait
 * ([[Fiber.park]]), and counted runnable again by whoever wakes it ([[Fiber.unpark]],
 * [[Fiber.interrupt]]) *before* the JDK's unpark: the count never reads zero while a woken fiber
 * has yet to run, so the clock cannot move under a fiber woken by a value. A fiber blocked in a
 * JDK call (`Thread.sleep`, a socket read) never parked through weft: it counts as runnable and
 * holds the count above zero. A fiber woken by a thread outside the domain (a JDK timer, a
 * callback) is counted only once it runs again; that window is the kit's documented limit.
 *
 * Each member has a state; it adds one to the count in every state but `Parked`:
 *   - `Running`: it runs (or is blocked in the JDK);
 *   - `Permit`: it runs and was woken meanwhile, so its next park returns at once, still counted
 *     (without parking: the JDK's permit may have been taken by a JDK park in between);
 *   - `Parked`: it parks in a weft wait, not counted;
 *   - `Woken`: a waker counted it again; it has yet to return from its park.
 * A park returning without a counted wake (spurious, a timed park's end, a foreign interrupt)
 * moves `Parked` to `Running` and counts it itself. `FiberDomainStressSuite` (core) and
 * `IdleDetectionStressSuite` (testkit) re-check that the count never reads zero while a member
 * can run.
 *
 * Outside any domain, [[Fiber.park]] and [[Fiber.unpark]] cost one volatile read more.
 */
abstract class FiberDomain:
  import FiberDomain.*

  /** The support the domain's fibers use (their `AsyncSupport.current`). */
  def support: AsyncSupport

  /** One more member can run (called before it runs). */
  protected def onRunnable(): Unit

  /** One fewer member can run: it parked in a weft wait, or ended. */
  protected def onWaiting(): Unit

  /**
   * Whether a member waiting on the world outside the process ([[Fiber.waitingOutside]]: a
   * socket read, an accept) holds the count like any JDK call (`true`, the default), or counts
   * as waiting meanwhile (`false`: a test kit then lets time pass while a peer is silent).
   */
  protected def outsideWaitsHoldTime: Boolean = true

  /** `delta` (+1 or -1) members now wait outside, counted as waiting. */
  protected def onOutside(delta: Int): Unit = ()

  /** Makes this domain's members counted from now on; call before [[start]]. */
  final def open(): Unit = FiberDomain.synchronized(active += 1)

  /** Ends the counting for this domain (its members have ended); once per [[open]]. */
  final def close(): Unit = FiberDomain.synchronized(active -= 1)

  /**
   * Starts `body` on a fiber of `underlying`, as a member of this domain: counted runnable from
   * now until it parks or ends.
   */
  final def start(underlying: AsyncSupport, body: Runnable): Fiber =
    onRunnable()
    try
      underlying.start: () =>
        val t = Thread.currentThread()
        members.put(t, Member(t, this))
        try body.run()
        finally
          members.remove(t)
          onWaiting()
    catch
      case e: Throwable =>
        onWaiting()
        throw e

  /** The members now, each with what it is doing, for a report. */
  final def snapshot(): List[FiberDomain.MemberView] =
    val b = List.newBuilder[MemberView]
    members.forEach: (t, m) =>
      if m.domain eq this then
        val parked = m.state.get == Parked
        val jdkState = t.getState
        val inJdk = !parked &&
          (jdkState == Thread.State.WAITING || jdkState == Thread.State.TIMED_WAITING ||
            jdkState == Thread.State.BLOCKED)
        b += MemberView(
          if t.getName.isEmpty then Fiber.describe(t) else t.getName,
          parked && !m.outside,
          inJdk,
          m.outside,
          LockSupport.getBlocker(t),
          t.getStackTrace
        )
    b.result()

  /** Interrupts every member (cancels their weft waits), counting each woken one. */
  final def interruptAll(): Unit =
    members.forEach((t, m) => if m.domain eq this then Fiber.ofThread(t).interrupt())

/** The members of all domains, and the hooks of [[Fiber]]. */
object FiberDomain:

  /**
   * A member as a report shows it: its name, whether it is parked in a weft wait, blocked in a
   * JDK call, or waiting outside counted as waiting ([[Fiber.waitingOutside]]), the object it
   * parks on (a weft waiter, a channel's cell, a semaphore) and its stack.
   */
  final case class MemberView(
      name: String,
      parkedInWeft: Boolean,
      blockedInJdk: Boolean,
      waitingOutside: Boolean,
      blocker: AnyRef | Null,
      stack: Array[StackTraceElement]
  )

  private inline val Running = 0
  private inline val Permit = 1
  private inline val Parked = 2
  private inline val Woken = 3

  /** The number of open domains: while zero, the hooks only read it. */
  @volatile private var active: Int = 0

  private val members = ConcurrentHashMap[Thread, Member]()

  private final class Member(val thread: Thread, val domain: FiberDomain):
    val state = AtomicInteger(Running)

    /** Whether it waits outside ([[Fiber.waitingOutside]]) counted as waiting. */
    @volatile var outside = false

    /**
     * Runs `body` (a wait on the outside world) counted as waiting, then counts the member
     * runnable again unless a waker did; a member woken before (`Permit`) runs it counted.
     */
    def waitOutside[T](body: => T): T =
      if !state.compareAndSet(Running, Parked) then body
      else
        outside = true
        domain.onOutside(1)
        domain.onWaiting()
        try body
        finally
          settle() // counted runnable before it stops counting as an outside wait
          outside = false
          domain.onOutside(-1)

    /**
     * After a park or an outside wait: `Running` again, counted once. A return nobody counted
     * (spurious, timed out, foreign) counts itself *before* it leaves `Parked`: once the state
     * reads `Running`, a waker takes the member as counted, returns, and may park itself, and
     * the count must not read zero then (FiberDomainStressSuite's token stress caught that
     * window). If a waker counted it meanwhile (`Woken`), its own count is taken back.
     */
    def settle(): Unit =
      var done = false
      while !done do
        if state.compareAndSet(Woken, Running) then done = true
        else
          domain.onRunnable()
          if state.compareAndSet(Parked, Running) then done = true
          else domain.onWaiting() // a waker counted it first: the state is `Woken` now

    /** Parks once, for at most `nanos` (or without limit if negative), keeping the count. */
    def park(blocker: AnyRef, nanos: Long): Unit =
      if state.compareAndSet(Permit, Running) then
        // Woken while running: return at once, still counted, as a spurious wake-up (every weft
        // wait re-checks its condition and parks again). Parking for the waker's JDK permit
        // would trust a permit that a JDK park in between (a spin's timed park, a JDK lock) may
        // have taken: the fiber would then block while counted, and the virtual clock stall
        // (FiberDomainStressSuite). A permit left over makes a later park return early, which
        // that park counts itself.
        ()
      else if state.compareAndSet(Running, Parked) then
        domain.onWaiting()
        parkJdk(blocker, nanos)
        settle()

    /**
     * Counts the member runnable if it is parked; called before the JDK's unpark. The count
     * comes first, then the state: once `Woken`, the member may return and run before this
     * thread does anything more. If the member left `Parked` meanwhile, the count is taken back
     * (it is counted by its own state then).
     */
    def wake(): Unit =
      var done = false
      while !done do
        state.get match
          case Parked =>
            domain.onRunnable()
            if state.compareAndSet(Parked, Woken) then done = true
            else domain.onWaiting()
          case Running => done = state.compareAndSet(Running, Permit)
          case _       => done = true

  private def parkJdk(blocker: AnyRef, nanos: Long): Unit =
    if nanos < 0 then LockSupport.park(blocker) else LockSupport.parkNanos(blocker, nanos)

  /** [[Fiber.park]] and [[Fiber.parkNanos]]: the current thread parks, counted if a member. */
  private[runtime] def park(blocker: AnyRef, nanos: Long): Unit =
    if active == 0 then parkJdk(blocker, nanos)
    else
      val m = members.get(Thread.currentThread())
      if m == null then parkJdk(blocker, nanos) else m.park(blocker, nanos)

  /** Counts `t` runnable if it is a parked member; called before it is unparked or interrupted. */
  private[runtime] def beforeWake(t: Thread): Unit =
    if active != 0 then
      val m = members.get(t)
      if m != null then m.wake()

  /** [[Fiber.waitingOutside]]. */
  private[runtime] def outside[T](body: => T): T =
    if active == 0 then body
    else
      val m = members.get(Thread.currentThread())
      if m == null || m.domain.outsideWaitsHoldTime then body else m.waitOutside(body)

  /** The support of the calling fiber's domain, or `otherwise` if it belongs to none. */
  private[runtime] def supportOfCurrent(otherwise: AsyncSupport): AsyncSupport =
    if active == 0 then otherwise
    else
      val m = members.get(Thread.currentThread())
      if m == null then otherwise else m.domain.support
