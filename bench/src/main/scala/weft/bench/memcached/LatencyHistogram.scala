package weft.bench.memcached

import java.util.concurrent.atomic.AtomicLongArray

/**
 * A concurrent log-linear histogram of latencies in nanoseconds, for the open-loop harness
 * ([[OpenLoopRun]]; one per window, added together per load for its curve): the bench module has no HdrHistogram, so this is the same idea in a few
 * lines.
 *
 * ==Buckets==
 * Values below [[LatencyHistogram.SubBuckets]] ns have a bucket each. Above, a value `v` with
 * highest set bit `e` falls in one of `SubBuckets` equal slices of `[2^e, 2^(e+1))`, so a bucket
 * is at most 1/64 of its values wide (1.6%). A percentile is the upper end of the bucket that
 * holds it: never below the true value, at most 1.6% above. Values above about 2^40 ns (18
 * minutes) land in the last bucket. Recording is one atomic increment, safe from any thread.
 * `LatencyHistogramSuite` re-checks the bounds.
 */
final class LatencyHistogram:
  import LatencyHistogram.*

  private val counts = AtomicLongArray(Buckets)

  /** Records one latency (negative values count as 0). */
  def record(nanos: Long): Unit = counts.incrementAndGet(indexOf(math.max(0L, nanos)))

  /** Adds every value `other` recorded (pooling a load's blocks for its curve). */
  def addAll(other: LatencyHistogram): Unit =
    var i = 0
    while i < Buckets do
      val n = other.counts.get(i)
      if n != 0 then counts.addAndGet(i, n)
      i += 1

  /** How many values were recorded. */
  def count: Long =
    var n = 0L
    var i = 0
    while i < Buckets do
      n += counts.get(i)
      i += 1
    n

  /**
   * The value at percentile `p` (0 < p <= 100): the upper end of the bucket holding the
   * `ceil(p% of count)`-th smallest value; 0 when empty.
   */
  def percentile(p: Double): Long =
    val total = count
    if total == 0 then 0L
    else
      val rank = math.max(1L, math.ceil(p / 100.0 * total).toLong)
      var seen = 0L
      var i = 0
      while i < Buckets - 1 && seen + counts.get(i) < rank do
        seen += counts.get(i)
        i += 1
      upperOf(i)

  /** The largest value recorded, to bucket precision. */
  def max: Long =
    var i = Buckets - 1
    while i > 0 && counts.get(i) == 0 do i -= 1
    if counts.get(i) == 0 then 0L else upperOf(i)

/** Bucket arithmetic. */
object LatencyHistogram:
  /** Linear slices per power of two. */
  val SubBuckets: Int = 64

  private val SubBits = 6 // log2(SubBuckets)
  private val MaxExponent = 40
  private val Buckets = SubBuckets + (MaxExponent - SubBits + 1) * SubBuckets

  /** The bucket of `v >= 0`. */
  def indexOf(v: Long): Int =
    if v < SubBuckets then v.toInt
    else
      val e = math.min(63 - java.lang.Long.numberOfLeadingZeros(v), MaxExponent)
      if e == MaxExponent && v >= (2L << MaxExponent) then Buckets - 1
      else
        val slice = ((v - (1L << e)) >>> (e - SubBits)).toInt
        SubBuckets + (e - SubBits) * SubBuckets + slice

  /** The largest value bucket `i` holds. */
  def upperOf(i: Int): Long =
    if i < SubBuckets then i.toLong
    else
      val e = (i - SubBuckets) / SubBuckets + SubBits
      val slice = (i - SubBuckets) % SubBuckets
      (1L << e) + ((slice + 1).toLong << (e - SubBits)) - 1
