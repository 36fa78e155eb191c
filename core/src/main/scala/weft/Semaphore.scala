package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import weft.internal.async.Cancellation
import weft.internal.semaphore.SemaphoreQueue

/**
 * A fair counting semaphore for `Async` code: at most `permits` holders at a time, waiters served
 * in FIFO order.
 *
 * {{{
 * val db = Semaphore(10) // at most 10 queries at once
 * def query(sql: String)(using Async): Rows = db.withPermit(run(sql))
 * }}}
 *
 * [[acquire]] suspends until a permit is free and returns a [[Semaphore.Guard]]; closing the
 * guard releases the permit (once: closing again does nothing), so `Using`-style code or
 * [[withPermit]] return it on every path. [[acquiring]] is the same operation as a [[Source]], so
 * a permit can be awaited in `Async.select` / `Async.race` beside other sources: only the
 * winning case takes a permit.
 *
 * ==Fairness==
 * A permit is taken directly only while no acquirer waits: the count of free permits is positive
 * only when no claim is queued, so neither [[acquire]] nor [[tryAcquire]] nor a poll of
 * [[acquiring]] ever takes a permit past a waiter. Waiters are served in the order in which they
 * claimed their place in the queue (one atomic increment each, right after finding no permit
 * free); two acquirers arriving at the same instant may claim their places in either order. A
 * waiter that gives up (cancelled, timed out, a select that took another case) loses its place.
 *
 * @param permits
 *   the number of permits, at least 1
 */
final class Semaphore(val permits: Int):
  require(permits >= 1, s"a Semaphore needs at least 1 permit, got $permits")
  import Semaphore.COUNT

  // The algorithm. One atomic count: free permits when positive, minus the number of waiting claims
  // otherwise. An acquire is one atomic decrement: if the old count was positive it took a permit,
  // otherwise it has a claim and waits in the lock-free FIFO of `SemaphoreQueue` (cells claimed by
  // fetch-and-add, after the semaphore of kotlinx.coroutines; the algorithm is explained there). A
  // release is one atomic increment: if the old count was not negative the permit is free again,
  // otherwise it serves the oldest claim. A claim whose waiter gave up, or whose listener declines
  // the permit (it lost a race to another source), is passed over: the releaser increments the
  // count again and serves the next one, so a permit is given only to a waiter that took it, and
  // none is ever lost (ADR 0006). Neither path takes a lock, and `withPermit` allocates nothing but
  // queue segments (a waiter parks in its cell as its own fiber; one segment per 32 waits).
  // Decisions in docs/adr/0010-lock-free-semaphore.md.

  // Free permits if positive, minus the waiting claims otherwise (see `SemaphoreQueue`).
  @volatile private var count: Long = permits
  // A var only so that tests can give it small segments (`withSegmentShift`) before any use.
  private var queue = SemaphoreQueue(this, SemaphoreQueue.DefaultShift)

  /**
   * For tests, on a new semaphore only: waiters queue in segments of `1 << shift` cells, so that
   * a model checker reaches segment removal with a few operations.
   */
  private[weft] def withSegmentShift(shift: Int): this.type =
    queue = SemaphoreQueue(this, shift)
    this

  /** The queue segments reachable now (a snapshot, for tests of what give-ups leave behind). */
  private[weft] def queuedSegments: Int = queue.reachableSegments

  /** How many dropped listeners had to be searched for in the queue (for tests). */
  private[weft] def scansForDrops: Long = queue.scansForDrops

  /**
   * Suspends until a permit is free (FIFO), and returns the guard that releases it. A free permit
   * nobody waits for is taken at once, without suspending.
   *
   * An interrupt that arrives as the permit is handed over does not lose it: `acquire` returns
   * the guard and the interrupt stays raised for the caller's next wait.
   * @throws java.util.concurrent.CancellationException
   *   if the scope is cancelled (before or while waiting); no permit is then taken
   */
  def acquire()(using Async): Semaphore.Guard =
    take("Semaphore.acquire")
    Semaphore.Guard(this)

  /** Takes a permit if one is free now and nobody is waiting; never blocks. */
  def tryAcquire(): Option[Semaphore.Guard] =
    if takeFree() then Some(Semaphore.Guard(this)) else None

  /**
   * Runs `body` holding a permit (taken as by [[acquire]]), released however `body` ends
   * (returns, throws, or is cancelled).
   * @throws java.util.concurrent.CancellationException
   *   if the scope is cancelled before a permit is taken; `body` then does not run
   */
  def withPermit[T](body: => T)(using Async): T =
    take("Semaphore.withPermit")
    try body
    finally release()

  /** The number of free permits now (a snapshot). */
  def available: Int = math.max(0L, count).toInt

  /** The number of waiting acquirers and listeners now (a snapshot). */
  def waiting: Int = queue.waiting

  /**
   * A source of permits: each value offered is a fresh guard owning one permit, given to the
   * listener only if it takes it. Awaiting it is [[acquire]].
   */
  val acquiring: Source[Semaphore.Guard] = new OriginalSource[Semaphore.Guard]:
    def poll(k: Listener[Semaphore.Guard]): Boolean =
      if takeFree() then
        offerOrRelease(k)
        true
      else false

    override def onComplete(k: Listener[Semaphore.Guard]): Unit =
      if (COUNT.getAndAdd(Semaphore.this, -1L): Long) > 0L then offerOrRelease(k)
      else queue.enqueue(k)

    protected def addListener(k: Listener[Semaphore.Guard]): Unit = onComplete(k)

    def dropListener(k: Listener[Semaphore.Guard]): Unit = queue.drop(k)

    override def toString: String = s"${Semaphore.this}.acquiring"

  /** Takes a permit, waiting in the queue if none is free (one atomic decrement when one is). */
  private inline def take(inline what: String)(using Async): Unit =
    Cancellation.check(what)
    if (COUNT.getAndAdd(this, -1L): Long) <= 0L then queue.await()

  /** Takes a free permit if there is one (then nobody waits); never queues. */
  private def takeFree(): Boolean =
    var c = count
    while c > 0L do
      if COUNT.compareAndSet(this, c, c - 1L) then return true
      c = count
    false

  /**
   * Offers a permit the caller holds to `k`; if `k` declines (or throws), releases it. Used
   * outside `release`, so a throwing listener's exception reaches the caller.
   */
  private[weft] def offerOrRelease(k: Listener[Semaphore.Guard]): Unit =
    val taken =
      try k.completeNow(Semaphore.Guard(this), acquiring)
      catch
        case e: Throwable =>
          release()
          throw e
    if !taken then release()

  /**
   * Offers the permit of a release to queued listener `k`: `true` if `k` took it; `false` if it
   * declined or threw (reported as uncaught), and the releaser passes the permit on.
   */
  private[weft] def offerQueued(k: Listener[Semaphore.Guard]): Boolean =
    try k.completeNow(Semaphore.Guard(this), acquiring)
    catch
      case e: Throwable =>
        weft.runtime.Fiber.reportUncaught(e)
        false

  /**
   * Returns one permit: to the oldest claim whose waiter takes it, else to the free count (one
   * atomic increment when nobody waits).
   */
  private[weft] def release(): Unit =
    while (COUNT.getAndAdd(this, 1L): Long) < 0L && !queue.handOver() do ()

  override def toString: String = s"Semaphore($permits permits, $available free, $waiting waiting)"

/** Permit guards. */
object Semaphore:

  /** Creates a fair semaphore with `permits` (at least 1) permits. */
  def apply(permits: Int): Semaphore = new Semaphore(permits)

  /** Owns one permit of `semaphore` until closed; closing more than once does nothing. */
  final class Guard private[Semaphore] (semaphore: Semaphore) extends AutoCloseable:
    @volatile private var closed = false

    /** Releases the permit (the first time only). */
    def close(): Unit =
      if CLOSED.compareAndSet(this, false, true) then semaphore.release()

    /** Whether the permit was released. */
    def isClosed: Boolean = closed

  private val CLOSED: VarHandle =
    MethodHandles.privateLookupIn(classOf[Guard], MethodHandles.lookup())
      .findVarHandle(classOf[Guard], "closed", classOf[Boolean])

  private val COUNT: VarHandle =
    MethodHandles.privateLookupIn(classOf[Semaphore], MethodHandles.lookup())
      .findVarHandle(classOf[Semaphore], "count", classOf[Long])
