package weft.bench.memcached

class LatencyHistogramSuite extends munit.FunSuite:

  test("a value's bucket ends at or above it, within 1/64 of it"):
    val rnd = scala.util.Random(7)
    val values = (0L until 200L) ++ Seq.fill(100_000)(rnd.nextLong(1L << 40))
    values.foreach { v =>
      val up = LatencyHistogram.upperOf(LatencyHistogram.indexOf(v))
      assert(up >= v, s"$v -> $up")
      assert(up - v <= v / 64, s"$v -> $up")
    }

  test("buckets are ordered: a larger value never lands in an earlier bucket"):
    val vs = (0 until 5000).map(i => (math.pow(1.01, i) - 1).toLong).distinct
    vs.sliding(2).foreach { case Seq(a, b) =>
      assert(LatencyHistogram.indexOf(a) <= LatencyHistogram.indexOf(b), s"$a $b")
    }

  test("percentiles of 1..10000 µs are the ranks' values to bucket precision"):
    val h = LatencyHistogram()
    (1 to 10_000).foreach(i => h.record(i * 1000L))
    assertEquals(h.count, 10_000L)
    for (p, v) <-
        Seq(50.0 -> 5_000_000L, 99.0 -> 9_900_000L, 99.9 -> 9_990_000L, 100.0 -> 10_000_000L)
    do
      val got = h.percentile(p)
      assert(got >= v && got <= v + v / 64, s"p$p: $got, expected about $v")
    assert(h.max >= 10_000_000L && h.max <= 10_000_000L + 10_000_000L / 64)

  test("an empty histogram reports 0; a huge value lands in the last bucket"):
    val h = LatencyHistogram()
    assertEquals(h.percentile(99), 0L)
    h.record(Long.MaxValue)
    assert(h.percentile(50) > (1L << 40))
