package weft.bench.resilience

import scala.concurrent.duration.*

/**
 * The shared setup of `rate-limiter` and `rate-limiter-contended`: every contender is a
 * fixed-window limiter (weft's `fixedWindow`, ox's `fixedWindowWithStartTime`, resilience4j's
 * default `AtomicRateLimiter`, whose refresh cycles are fixed windows) allowing [[Limit]] permits
 * per second, far above what a loop can take, so that the benchmarks measure the cost of a
 * permit, never the rate. Each invocation makes its own limiter (ox's needs a scope around it),
 * amortised over the invocation's permits.
 */
object RateLimiterLoad:

  /** Permits per window: more than any contender takes in one (so nobody ever waits). */
  final val Limit = 100_000_000

  /** The window. */
  val Window: FiniteDuration = 1.second

  /** Permits taken per invocation by the single fiber of `rate-limiter`. */
  final val N = 10_000

  /** Fibers of `rate-limiter-contended`. */
  final val Fibers = 8

  /** Permits each of them takes per invocation. */
  final val PerFiber = 2_000

  /** Permits per invocation of `rate-limiter-contended`. */
  final val Contended = Fibers * PerFiber

  /** resilience4j's limiter as its users configure one: `Limit` per `Window`, waiting allowed. */
  def resilience4j(): io.github.resilience4j.ratelimiter.RateLimiter =
    import io.github.resilience4j.ratelimiter.{RateLimiter, RateLimiterConfig}
    val config = RateLimiterConfig.custom()
      .limitForPeriod(Limit)
      .limitRefreshPeriod(java.time.Duration.ofNanos(Window.toNanos))
      .timeoutDuration(java.time.Duration.ofSeconds(10))
      .build()
    RateLimiter.of("bench", config)
