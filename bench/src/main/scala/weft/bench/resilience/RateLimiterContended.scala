package weft.bench.resilience

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.{Async, Future, awaitAll}
import weft.resilience.RateLimiter

/**
 * Workload `rate-limiter-contended`: [[RateLimiterLoad.Fibers]] virtual threads share one
 * limiter, each taking [[RateLimiterLoad.PerFiber]] permits with its blocking acquire (none ever
 * has to wait: see [[RateLimiterLoad]]). weft's fibers are `Future`s, ox's are `fork`s of a
 * `supervised` scope, resilience4j's plain virtual threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(RateLimiterLoad.Contended)
class RateLimiterContended:
  import RateLimiterLoad.*

  /** weft: `Fibers` futures share `RateLimiter.fixedWindow`. */
  @Benchmark
  def weft(): Int = _root_.weft.bench.OnVirtualThread.blocking {
    val limiter = RateLimiter.fixedWindow(Limit, Window)
    (1 to Fibers)
      .map: _ =>
        Future:
          var i = 0
          while i < PerFiber do
            limiter.acquire()
            i += 1
          i
      .awaitAll
      .sum
  }

  /** ox: `Fibers` forks share `RateLimiter.fixedWindowWithStartTime`. */
  @Benchmark
  def ox(): Int =
    import _root_.ox.{fork, supervised}
    supervised {
      val limiter = _root_.ox.resilience.RateLimiter.fixedWindowWithStartTime(Limit, Window)
      (1 to Fibers)
        .map: _ =>
          fork:
            var i = 0
            while i < PerFiber do
              limiter.runBlocking(())
              i += 1
            i
        .map(_.join())
        .sum
    }

  /** resilience4j: `Fibers` virtual threads share an `AtomicRateLimiter`. */
  @Benchmark
  def resilience4j(): Int =
    val limiter = RateLimiterLoad.resilience4j()
    val threads = (1 to Fibers).map: _ =>
      Thread.ofVirtual().start: () =>
        var i = 0
        while i < PerFiber do
          if !limiter.acquirePermission() then throw IllegalStateException("no permit")
          i += 1
    threads.foreach(_.join())
    Contended
