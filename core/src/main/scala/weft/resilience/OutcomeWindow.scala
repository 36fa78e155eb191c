package weft.resilience

/**
 * The outcomes a closed [[CircuitBreaker]] judges: totals of calls, failures and slow calls over
 * the last `n` calls or the last period. Not thread-safe: the breaker uses it under its lock.
 */
private[resilience] sealed abstract class OutcomeWindow:
  /** Calls in the window. */
  var calls = 0

  /** Failed calls in the window. */
  var failures = 0

  /** Slow calls in the window. */
  var slows = 0

  /** Records one outcome at instant `now`. */
  def record(failed: Boolean, slow: Boolean, now: Long): Unit

  /** Forgets what is too old at instant `now` (the totals then hold for `now`). */
  def advance(now: Long): Unit

  /** Forgets everything. */
  def clear(): Unit

  protected final def add(failed: Boolean, slow: Boolean, sign: Int): Unit =
    calls += sign
    if failed then failures += sign
    if slow then slows += sign

private[resilience] object OutcomeWindow:

  /** The window a config asks for. */
  def apply(window: CircuitBreakerConfig.Window, now: Long): OutcomeWindow = window match
    case CircuitBreakerConfig.Window.Count(n)     => Count(n)
    case CircuitBreakerConfig.Window.Time(during) => Time(during.toNanos, now)

  /**
   * The last `size` outcomes in a ring (bit 0: failed, bit 1: slow); a new outcome replaces the
   * oldest once the ring is full.
   */
  final class Count(size: Int) extends OutcomeWindow:
    private val ring = new Array[Byte](size)
    private var next = 0

    def record(failed: Boolean, slow: Boolean, now: Long): Unit =
      if calls == size then
        val old = ring(next)
        add((old & 1) != 0, (old & 2) != 0, -1)
      ring(next) = ((if failed then 1 else 0) | (if slow then 2 else 0)).toByte
      add(failed, slow, 1)
      next = (next + 1) % size

    def advance(now: Long): Unit = ()

    def clear(): Unit =
      calls = 0; failures = 0; slows = 0; next = 0

  /**
   * The outcomes of the last `length` nanoseconds, in 10 buckets of a tenth each: bucket `k`
   * (counted from `origin`) sits in slot `k % 10`, and is emptied when bucket `k + 10` begins.
   */
  final class Time(length: Long, origin: Long) extends OutcomeWindow:
    private val Buckets = 10
    private val bucketLength = math.max(1L, (length + Buckets - 1) / Buckets)
    private val index = Array.fill(Buckets)(Long.MinValue) // the bucket each slot holds
    private val bucketCalls = new Array[Int](Buckets)
    private val bucketFailures = new Array[Int](Buckets)
    private val bucketSlows = new Array[Int](Buckets)

    def record(failed: Boolean, slow: Boolean, now: Long): Unit =
      advance(now)
      val k = Math.floorDiv(now - origin, bucketLength)
      val s = Math.floorMod(k, Buckets.toLong).toInt
      index(s) = k
      bucketCalls(s) += 1
      if failed then bucketFailures(s) += 1
      if slow then bucketSlows(s) += 1
      add(failed, slow, 1)

    def advance(now: Long): Unit =
      val oldest = Math.floorDiv(now - origin, bucketLength) - Buckets + 1
      var s = 0
      while s < Buckets do
        if index(s) != Long.MinValue && index(s) < oldest then empty(s)
        s += 1

    def clear(): Unit =
      var s = 0
      while s < Buckets do
        empty(s)
        s += 1

    private def empty(s: Int): Unit =
      calls -= bucketCalls(s); failures -= bucketFailures(s); slows -= bucketSlows(s)
      bucketCalls(s) = 0; bucketFailures(s) = 0; bucketSlows(s) = 0
      index(s) = Long.MinValue
