package weft

import weft.runtime.Fiber

/**
 * How a platform thread that entered `Async.blocking` waits for the scope's body, which runs on
 * a virtual thread: a short spin before it parks, because waking a parked platform thread costs
 * far more than the short body of a typical scope (see [[awaitFuture]]).
 */
private[weft] object PlatformWait:

  /** How long a platform thread entering a scope spins before it parks: 20 µs. */
  inline val PlatformSpinNanos = 20_000L

  /** At most this many platform threads spin at once (half the cores, at least one). */
  val MaxPlatformSpinners: Int = math.max(1, Runtime.getRuntime.availableProcessors / 2)

  /** The platform threads spinning now (see [[spinWhile]]). */
  private val platformSpinners = java.util.concurrent.atomic.AtomicInteger()

  /**
   * Waits on a platform thread for `f`; interrupts surface as `InterruptedException`.
   *
   * It spins for up to [[PlatformSpinNanos]] before it parks. Parking a platform thread and
   * waking it costs a system call on each side plus the OS scheduler's latency, an order of
   * magnitude more than the short body of a typical scope; with more callers than cores the spin
   * neither helps nor hurts. Only a platform thread entering a scope spins: the body it waits for
   * runs on a virtual thread, on a carrier of its own. The `compose-3` benchmark (entered from
   * platform threads, at 1, 10 and 20 threads) re-checks it; figures in docs/perf/core.md.
   */
  def awaitFuture(f: CoreFuture[?]): Unit =
    spinWhile(!f.isDone)
    if !f.isDone then
      val w = JvmAsync.Waiter[Any](Fiber.current)
      f.onComplete(w)
      while !w.isDone do
        Fiber.park(w)
        if Fiber.interrupted() then
          f.dropListener(w)
          if !w.giveUp() then throw InterruptedException()
          Fiber.selfInterrupt() // the result came first: keep it, and the interrupt

  /**
   * Spins for up to [[PlatformSpinNanos]] while the fiber of `f`, which has completed, takes its
   * last steps (leaving its group, terminating), so that the scope's join that follows need not
   * park the platform thread either (`compose-3` at 1 thread re-checks it; docs/perf/core.md).
   */
  def spinUntilExited(f: RunnableFuture[?]): Unit = spinWhile(f.fiberRunning)

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
        if platformSpinners.incrementAndGet() <= MaxPlatformSpinners then
          val start = System.nanoTime()
          var spins = 1
          while cond && ((spins & 31) != 0 || System.nanoTime() - start < PlatformSpinNanos) do
            Fiber.onSpinWait()
            spins += 1
      finally platformSpinners.decrementAndGet()
