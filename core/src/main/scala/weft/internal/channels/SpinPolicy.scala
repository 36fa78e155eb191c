package weft
package internal.channels

import weft.channels.*

import weft.runtime.Fiber

/**
 * How long a channel waiter (a blocking sender or reader in its cell) spins on its outcome before
 * parking; one per channel.
 *
 * Spinning helps only a rendezvous, and only while the partner arrives during the spin: one sender
 * and one reader on their own cores (channel-sync). With more runnable fibers than cores (a chain
 * of 1000 fibers) the partner needs the very carrier the spinner holds, and spinning costs far
 * more than it saves (channel-chain-1000). So spinning adapts to its success rate: a score gains
 * [[SpinPolicy.Win]] when the partner arrived during a spin and loses [[SpinPolicy.Loss]] when the
 * spinner had to park anyway; waiters spin while the score is positive (a success rate above
 * about 1 in 5), and at zero one wait in 32 probes. Racy updates of this heuristic are harmless.
 * The score starts at zero, so a channel earns its spinning: starting half-way up, each of the
 * chain's fresh channels spent its first waits losing spins (channel-sync and select-2 do not
 * mind the zero start: their first probe wins within microseconds).
 * A buffered or unbounded waiter parks at once, which lets the other side fill or drain the
 * buffer in a batch (jox does the same; channel-unbounded re-checks it).
 * The benchmarks named here re-check these choices (figures in docs/perf/channels.md);
 * `SpinPolicySuite` checks the scoring.
 *
 * @param rendezvous
 *   whether the channel is a rendezvous (otherwise waiters never spin)
 */
private[weft] final class SpinPolicy(rendezvous: Boolean):
  import SpinPolicy.*

  private var score = 0
  private var probe = 0

  /**
   * Spins (as the score allows) until `arrived`, then updates the score. A partner that arrived
   * before the waiter began (a watching select served the sender as it stored itself) says
   * nothing about spinning and is not scored: counting it as a win kept senders spinning in
   * select-2, where the selecting reader almost never came during the spin.
   */
  inline def beforePark(inline arrived: Boolean): Unit =
    if !arrived then
      val limit = nextLimit()
      var spun = 0
      while !arrived && spun < limit do
        Fiber.onSpinWait()
        spun += 1
      record(limit, arrived)

  /** How long the next waiter spins before parking. */
  def nextLimit(): Int =
    if !rendezvous then 0
    else if score > 0 then Spins
    else
      probe += 1
      if (probe & 31) == 0 then Spins else 0

  /** Updates the score after a waiter that spun up to `limit`. */
  def record(limit: Int, arrivedWhileSpinning: Boolean): Unit =
    if limit > 0 then
      val sc = score
      val next =
        if arrivedWhileSpinning then math.min(ScoreMax, sc + Win)
        else math.max(0, sc - Loss)
      // Written only when it changes: both sides of a busy rendezvous record every wait, and a
      // store each time moved this line (and its neighbours) between the cores.
      if next != sc then score = next

/** Constants of [[SpinPolicy]]. */
private[weft] object SpinPolicy:
  /** The most a rendezvous waiter spins on its outcome before parking. */
  inline val Spins = 128

  /** The upper bound of the score. */
  inline val ScoreMax = 1024

  /** What a spin that saw the partner arrive adds to the score. */
  inline val Win = 64

  /** What a spin that had to park anyway takes from the score. */
  inline val Loss = 16
