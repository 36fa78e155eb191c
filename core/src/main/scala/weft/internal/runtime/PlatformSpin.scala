package weft
package internal.runtime

import weft.runtime.*

import java.util.concurrent.atomic.AtomicInteger

/**
 * How a platform thread waits in an await (a root scope's body runs on the thread that entered it,
 * ADR 0016): it spins briefly before parking, but only while few platform threads wait at once.
 *
 * A park and wake-up of a platform thread costs far more than the spawn and completion of a short
 * future on a virtual thread, so a loop of spawns and awaits in a root scope entered from `main`
 * paid one platform wake-up per await. A platform thread's spin does not hold a carrier (a virtual
 * thread's spin did: the child it waited for sat in that carrier's queue), so the child runs on
 * a carrier meanwhile and the caller sees its result without parking. But a spinner takes a core
 * from the carriers: with many platform callers (the memcached benchmarks' JMH threads) one of
 * them was always spinning, a core lost (docs/perf/memcached.md). So a platform thread spins only while
 * at most [[MaxSpinningWaiters]] platform threads wait in an await, parked ones included, and for
 * at most [[SpinNanos]], about what the park it saves costs; then it parks as before.
 * `RootSpawnAwait` (bench) re-checks the gain, the memcached and compose-3 rows the gate
 * (ADR 0021); `PlatformSpinSuite` checks that the count of waiters returns to zero.
 */
private[weft] object PlatformSpin:

  /** Platform threads now waiting in an await (spinning or parked). */
  private val waiting = AtomicInteger()

  /** The most platform threads waiting at once for one of them to spin: half the cores, or one. */
  val MaxSpinningWaiters: Int = math.max(1, Runtime.getRuntime.availableProcessors / 2)

  /** The longest a platform thread spins before it parks: 20 µs. */
  inline val SpinNanos = 20000L

  /** Spins with a CPU hint this many times before yielding the core between checks. */
  inline val HintedSpins = 64

  /** Whether the calling thread is a platform thread (its waits cost an OS wake-up). */
  inline def onPlatformThread: Boolean = !Thread.currentThread().isVirtual

  /**
   * Counts the caller among the waiting platform threads; `true` if it may spin. Pair with
   * [[leave]] in a `finally`.
   */
  def enter(): Boolean = waiting.incrementAndGet() <= MaxSpinningWaiters

  /** Uncounts a caller of [[enter]]. */
  def leave(): Unit = waiting.decrementAndGet(): Unit

  /** The number of platform threads now counted as waiting (a diagnostic for tests). */
  def waitingNow: Int = waiting.get

  /** Spins until `done` or [[SpinNanos]] have passed: CPU hints first, then yields. */
  inline def spinUntil(inline done: Boolean): Unit =
    if !done then
      val start = System.nanoTime() // real time on purpose: a spin is a CPU budget, not a timer
      var i = 0
      while !done && System.nanoTime() - start < SpinNanos do
        if i < HintedSpins then Thread.onSpinWait() else Thread.`yield`()
        i += 1
