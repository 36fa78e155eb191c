package weft.testkit

import weft.Async

/**
 * Virtual time for tests: a scope in which every weft facility that waits for time (`sleep`,
 * `withTimeout`, `Timer`, `Ticker`, `Task` schedules, `retry` delays, rate limiters, circuit
 * breakers, select's `onTimeout`, timed channel and semaphore waits, the memcached client's
 * deadlines) counts a virtual clock that jumps ahead whenever every fiber of the scope waits.
 * An hour of retries runs in milliseconds, and its timings are exact.
 *
 * {{{
 * test("the poller gives up after an hour"):
 *   VirtualTime.run:
 *     val e = intercept[TimeoutException](withTimeout(1.hour)(pollForever()))
 *     assertEquals(currentTime, 1.hour)
 * }}}
 *
 * The rules (ADR 0029):
 *   - The clock moves only when every fiber of the scope waits on weft (a future, a channel, a
 *     semaphore, a timer) and none can run; it jumps to the earliest pending timer, fires
 *     everything due then, and lets the fibers run until they all wait again. A fiber woken by a
 *     value sees the time unchanged.
 *   - A fiber blocked in a JDK call (`Thread.sleep`, a socket read, a JDK lock) holds the clock
 *     still; after [[VirtualTimeConfig.blockedLimit]] of real time without progress the scope
 *     fails with a [[BlockedFiberException]] naming it and where it blocks.
 *     weft's own socket waits (`weft-io`'s reads and accepts, the memcached client's
 *     connection) can count as waiting instead, so that a deadline fires against a silent
 *     peer: [[VirtualTimeConfig.outsideWaitsHoldTime]].
 *   - When every fiber waits, no timer is pending and nothing wakes them, the scope fails at once
 *     (after [[VirtualTimeConfig.deadlockGrace]]) with a [[DeadlockException]] listing each fiber,
 *     what it waits on and its stack.
 *   - Only the fibers started inside the scope are counted, and only weft's waits are seen:
 *     a thread of your own, or a JDK callback completing a promise, is outside it.
 *   - Timers, tickers, rate limiters and circuit breakers use virtual time when they are made
 *     inside the scope; one made outside keeps real time.
 *   - The scope is structured: it cancels and joins everything it started before it returns, and
 *     leaves no timer behind (a timer nobody cancelled is dropped, never fired).
 *   - An interrupt of the thread calling `run` (a test's deadline, the caller's own scope
 *     cancelled) cancels the body as a root scope's interrupt does; `run` throws what the body
 *     then throws, and the thread's interrupt status is set again.
 */
object VirtualTime:

  /**
   * Runs `body` on a fiber of a fresh virtual-time scope, with the default [[VirtualTimeConfig]],
   * and returns its value (or throws its exception).
   * @throws DeadlockException
   *   if every fiber of the scope waits with nothing to wake them
   * @throws BlockedFiberException
   *   if a fiber blocks in a JDK call longer than the configured limit
   */
  def run[T](body: (VirtualClock, Async) ?=> T): T = Driver(VirtualTimeConfig()).run(body)

  /** Virtual-time scopes configured by `config`: `VirtualTime(config).run { ... }`. */
  def apply(config: VirtualTimeConfig): Configured =
    require(config != null, "VirtualTime: the config is null")
    Configured(config)

  /** Runs virtual-time scopes with a [[VirtualTimeConfig]] of its own. */
  final class Configured private[VirtualTime] (val config: VirtualTimeConfig):

    /** [[VirtualTime.run]] with this config. */
    def run[T](body: (VirtualClock, Async) ?=> T): T = Driver(config).run(body)
