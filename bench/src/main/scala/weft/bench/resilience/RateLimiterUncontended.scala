package weft.bench.resilience

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.Async
import weft.bench.time.VirtualLoop
import weft.resilience.RateLimiter

/**
 * Workload `rate-limiter`: one fiber takes [[RateLimiterLoad.N]] permits, one at a time, with
 * the blocking acquire of each limiter (none ever has to wait: see [[RateLimiterLoad]]). Every
 * loop runs on a virtual thread: weft's in `Async.blocking`, ox's and resilience4j's in
 * `VirtualLoop`. The method names are the contenders; `weft` is the baseline.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(RateLimiterLoad.N)
class RateLimiterUncontended:
  import RateLimiterLoad.*

  /** weft: `RateLimiter.fixedWindow`, `acquire()`. */
  @Benchmark
  def weft(): Int = _root_.weft.bench.OnVirtualThread.blocking {
    val limiter = RateLimiter.fixedWindow(Limit, Window)
    var i = 0
    while i < N do
      limiter.acquire()
      i += 1
    i
  }

  /** ox: `RateLimiter.fixedWindowWithStartTime` in a `supervised` scope, `runBlocking`. */
  @Benchmark
  def ox(): Int = VirtualLoop.run {
    _root_.ox.supervised {
      val limiter = _root_.ox.resilience.RateLimiter.fixedWindowWithStartTime(Limit, Window)
      var i = 0
      while i < N do
        limiter.runBlocking(())
        i += 1
      i
    }
  }

  /** resilience4j: `AtomicRateLimiter`, `acquirePermission()` (waits if it must). */
  @Benchmark
  def resilience4j(): Int = VirtualLoop.run {
    val limiter = RateLimiterLoad.resilience4j()
    var i = 0
    while i < N do
      if !limiter.acquirePermission() then throw IllegalStateException("no permit")
      i += 1
    i
  }
