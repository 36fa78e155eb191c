package weft.resilience

import java.util.concurrent.locks.ReentrantLock

/**
 * The sliding-window algorithm of [[RateLimiter.slidingWindow]]: an exact log of the instants of
 * the permits given in the last `window`, oldest first, in a ring of longs that grows as needed
 * up to `maxOps` entries. A request for `n` permits first drops the entries `window` old or
 * older, then is granted if at most `maxOps - n` remain; if not, it can be granted once the
 * `(size + n - maxOps)`-th oldest entry expires, which is the wait returned.
 *
 * The log is guarded by a `ReentrantLock` (not `synchronized`: a virtual thread waiting for it
 * does not pin its carrier); the section holding it never waits and is O(1) amortised per
 * permit. A lock-free log (cells stamped with a sequence number) was not worth its complexity
 * for the one algorithm that must remember every permit anyway.
 */
private[resilience] final class SlidingWindowLimiter(maxOps: Int, window: Long, clock: Clock)
    extends RateLimiter(clock):
  RateLimiter.atLeastOne(maxOps, "maxOps")

  private val lock = ReentrantLock()
  private var log = new Array[Long](math.min(maxOps, 16))
  private var head = 0 // index of the oldest entry
  private var size = 0

  def maxPermits: Int = maxOps

  // The clock is read under the lock, so that the log stays in order of time.
  protected def tryTake(n: Int): Long =
    lock.lock()
    try
      val now = clock.nanoTime()
      while size > 0 && now - log(head) >= window do
        head = (head + 1) % log.length
        size -= 1
      if size <= maxOps - n then
        if size + n > log.length then grow(size + n)
        var i = 0
        while i < n do
          log((head + size) % log.length) = now
          size += 1
          i += 1
        0L
      else
        val k = size + n - maxOps - 1 // the entry whose expiry frees enough room
        math.max(1L, log((head + k) % log.length) + window - now)
    finally lock.unlock()

  /** Copies the log, oldest first, into an array of at least `needed` entries. */
  private def grow(needed: Int): Unit =
    val capacity = math.min(maxOps.toLong, math.max(needed.toLong, log.length * 2L)).toInt
    val bigger = new Array[Long](capacity)
    var i = 0
    while i < size do
      bigger(i) = log((head + i) % log.length)
      i += 1
    log = bigger
    head = 0

  override def toString: String = s"RateLimiter.slidingWindow($maxOps per ${window}ns)"
