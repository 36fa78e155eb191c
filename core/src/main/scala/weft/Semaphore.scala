package weft

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.locks.ReentrantLock

/**
 * A fair counting semaphore for `Async` code: at most `permits` holders at a time, served in
 * FIFO order.
 *
 * [[acquire]] suspends until a permit is free and returns a [[Semaphore.Guard]]; closing the
 * guard releases the permit (once: closing again does nothing), so `Using`-style code or
 * [[withPermit]] return it on every path. [[acquiring]] is the same operation as a [[Source]], so
 * a permit can be awaited in `Async.select` / `Async.race` beside other sources: only the
 * winning case takes a permit.
 *
 * ==Algorithm==
 * A count of free permits and a FIFO queue of waiting listeners, guarded by a `ReentrantLock`
 * (never `synchronized`; the lock is held for a few field updates only and never while a
 * listener runs). A listener arriving while nobody waits and a permit is free reserves it;
 * otherwise it joins the queue. A release hands its permit to the oldest waiter (or, if none,
 * returns it to the count). Handing a permit to a listener happens outside the lock through
 * `completeNow`; a listener that declines (it lost a race to another source) leaves the queue and
 * the permit goes to the next waiter, so a permit is given only to a listener that took it, and
 * none is ever lost. Fairness: while anyone waits, newcomers (including [[tryAcquire]]) queue
 * behind them.
 *
 * @param permits
 *   the number of permits, at least 1
 */
final class Semaphore(val permits: Int):
  require(permits >= 1, s"a Semaphore needs at least 1 permit, got $permits")

  private val lock = ReentrantLock()
  private var free: Int = permits // guarded by lock
  private val waiters = java.util.ArrayDeque[Listener[Semaphore.Guard]]() // guarded by lock

  /**
   * Suspends until a permit is free (FIFO), and returns the guard that releases it. A free permit
   * nobody waits for is taken at once, without suspending.
   * @throws java.util.concurrent.CancellationException
   *   if the scope is cancelled (before or while waiting); no permit is then taken
   */
  def acquire()(using async: Async): Semaphore.Guard =
    Cancellation.check("Semaphore.acquire")
    if reserve() then Semaphore.Guard(this) else async.await(acquiring)

  /** Takes a permit if one is free now and nobody is waiting; never blocks. */
  def tryAcquire(): Option[Semaphore.Guard] =
    lock.lock()
    val got =
      try
        if free > 0 && waiters.isEmpty then
          free -= 1
          true
        else false
      finally lock.unlock()
    if got then Some(Semaphore.Guard(this)) else None

  /** Runs `body` holding a permit, released however `body` ends. */
  def withPermit[T](body: => T)(using Async): T =
    val g = acquire()
    try body
    finally g.close()

  /** The number of free permits now (a snapshot). */
  def available: Int =
    lock.lock()
    try free
    finally lock.unlock()

  /** The number of waiting listeners now (a snapshot). */
  def waiting: Int =
    lock.lock()
    try waiters.size
    finally lock.unlock()

  /**
   * A source of permits: each value offered is a fresh guard owning one permit, given to the
   * listener only if it takes it. Awaiting it is [[acquire]].
   */
  val acquiring: Source[Semaphore.Guard] = new OriginalSource[Semaphore.Guard]:
    def poll(k: Listener[Semaphore.Guard]): Boolean =
      if reserve() then
        offer(k)
        true
      else false

    override def onComplete(k: Listener[Semaphore.Guard]): Unit =
      if reserveOrEnqueue(k) then offer(k)

    protected def addListener(k: Listener[Semaphore.Guard]): Unit = onComplete(k)

    def dropListener(k: Listener[Semaphore.Guard]): Unit =
      lock.lock()
      try waiters.remove(k)
      finally lock.unlock()

    override def toString: String = s"${Semaphore.this}.acquiring"

  /** Takes a free permit if nobody waits. */
  private def reserve(): Boolean =
    lock.lock()
    try
      if free > 0 && waiters.isEmpty then
        free -= 1
        true
      else false
    finally lock.unlock()

  /** Takes a free permit if nobody waits (`true`), else queues `k` (`false`). */
  private def reserveOrEnqueue(k: Listener[Semaphore.Guard]): Boolean =
    lock.lock()
    try
      if free > 0 && waiters.isEmpty then
        free -= 1
        true
      else
        waiters.addLast(k)
        false
    finally lock.unlock()

  /** Offers a reserved permit to `k`; if `k` declines, passes the permit on. */
  private def offer(k: Listener[Semaphore.Guard]): Unit =
    val g = Semaphore.Guard(this)
    val taken =
      try k.completeNow(g, acquiring)
      catch
        case e: Throwable =>
          release()
          throw e
    if !taken then release()

  /** Returns one permit: to the oldest waiter that takes it, else to the free count. */
  private[weft] def release(): Unit =
    var handedOver = false
    while !handedOver do
      lock.lock()
      val next =
        try
          val w = waiters.pollFirst()
          if w == null then free += 1
          w
        finally lock.unlock()
      if next == null then handedOver = true
      else
        val g = Semaphore.Guard(this)
        handedOver =
          try next.completeNow(g, acquiring)
          catch
            case e: Throwable =>
              weft.runtime.Fiber.reportUncaught(e)
              false

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
