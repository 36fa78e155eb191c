package weft

import weft.runtime.Fiber

/**
 * How a platform thread that entered `Async.blocking` waits for the scope's body, which runs on
 * a virtual thread: a short spin while few platform threads wait, then one park, woken once, when
 * the body's future leaves the root group at its very end (see [[awaitScopeBody]]).
 */
private[weft] object PlatformWait:

  /** How long a platform thread entering a scope spins before it parks: 20 µs. */
  inline val PlatformSpinNanos = 20_000L

  /** At most this many platform threads spin at once (half the cores, at least one). */
  val MaxPlatformSpinners: Int = math.max(1, Runtime.getRuntime.availableProcessors / 2)

  /** The platform threads spinning now (see [[spinWhile]]). */
  private val platformSpinners = java.util.concurrent.atomic.AtomicInteger()

  /**
   * A platform thread entering a scope spins only while at most this many wait (as many as there
   * are cores): beyond that, the callers outnumber the cores and a spinner only delays the
   * bodies.
   */
  val SpinWhileWaiters: Int = Runtime.getRuntime.availableProcessors

  /** The platform threads waiting for a scope's body now, spinning or parked. */
  private val platformWaiters = java.util.concurrent.atomic.AtomicInteger()

  /**
   * Waits on a platform thread until the scope's body `f` has finished and left `root`, then
   * until its fiber has terminated; an interrupt surfaces as `InterruptedException`.
   *
   * The caller parks once, on `root` becoming empty, which the body's fiber signals as its last
   * step; by then its result is set and its children are joined, so only the fiber's last
   * instructions remain, which [[spinUntilExited]] waits out. Waiting for the result first, then
   * for the group, then joining the fiber cost up to three park-and-wake round trips per scope
   * entry. Before parking, it spins for up to [[PlatformSpinNanos]]: parking a platform thread and
   * waking it costs a system call on each side plus the OS scheduler's latency, an order of
   * magnitude more than the short body of a typical scope. It spins only while no more platform
   * threads wait than there are cores ([[SpinWhileWaiters]]): with more callers than cores, a spinning caller takes a carrier
   * from the bodies everyone waits for (`compose-3` at 10 and 20 threads and `memcached-setget`
   * re-check it).
   */
  def awaitScopeBody(f: RunnableFuture[?], root: CompletionGroup): Unit =
    val waiting = platformWaiters.incrementAndGet()
    try
      if waiting <= SpinWhileWaiters then spinWhile(!f.isDone)
      root.waitEmptyInterruptibly()
    finally platformWaiters.decrementAndGet()

  /**
   * Spins for up to [[PlatformSpinNanos]] while the fiber of `f`, which has completed and left
   * its group, takes its last steps (terminating), so that the scope's join that follows need not
   * park the platform thread again. Not capped like [[spinWhile]]: the fiber is already running
   * its last instructions, so the wait is short for every caller (`compose-3` re-checks it).
   */
  def spinUntilExited(f: RunnableFuture[?]): Unit = spinFor(f.fiberRunning)

  /**
   * Spins while `cond` holds, for up to [[PlatformSpinNanos]] (the clock read every 32 turns),
   * unless [[MaxPlatformSpinners]] platform threads spin already. Spinning callers take CPU from
   * the carriers that run what they wait for: with more callers than cores, a profile showed
   * most samples in spin loops when every caller spun, and the cap cost nothing (`compose-3` at
   * 10 and 20 threads re-checks it; docs/perf/core.md).
   */
  private inline def spinWhile(inline cond: Boolean): Unit =
    if cond then
      try
        if platformSpinners.incrementAndGet() <= MaxPlatformSpinners then spinFor(cond)
      finally platformSpinners.decrementAndGet()

  /** Spins while `cond` holds, for up to [[PlatformSpinNanos]] (the clock read every 32 turns). */
  private inline def spinFor(inline cond: Boolean): Unit =
    val start = System.nanoTime()
    var spins = 1
    while cond && ((spins & 31) != 0 || System.nanoTime() - start < PlatformSpinNanos) do
      Fiber.onSpinWait()
      spins += 1
