package weft.guide

import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import scala.util.Try
import weft.*
import weft.resilience.*

/** The examples of docs/guide/resilience.md, run. */
class ResilienceGuideSuite extends munit.FunSuite:

  test("resilience: a rate limiter"):
    // example: resilience-rate-limiter
    val bucket = RateLimiter.tokenBucket(capacity = 5, refillInterval = 1.minute)
    val first = (1 to 8).count(_ => bucket.tryAcquire()) // 5: the bucket was full, now empty
    val later = bucket.tryRun("now") // None: the next token comes in a minute

    val paced = RateLimiter.fixedWindow(maxOps = 10, window = 100.millis)
    val sent = Async.blocking:
      (1 to 25).map(i => paced.run(i)).sum // 3 windows: the last 5 start after 200 ms
    // end
    assertEquals(first, 5)
    assertEquals(later, None)
    assertEquals(sent, 325)

  test("resilience: a circuit breaker"):
    val calls = AtomicInteger()
    def fetchPrice(item: String): Int =
      calls.incrementAndGet()
      throw java.io.IOException("pricing service down")
    // example: resilience-circuit-breaker
    val breaker = CircuitBreaker(
      CircuitBreakerConfig(
        failureRateThreshold = 50, // percent
        window = CircuitBreakerConfig.Window.Count(10), // judge the last 10 calls
        minimumCalls = 4,
        waitInOpen = 30.seconds, // then let `halfOpenCalls` probes through
        isFailure = !_.isInstanceOf[NoSuchElementException] // "no such item" is an answer
      )
    )
    val outcomes = (1 to 6).map(_ => Try(breaker.run(fetchPrice("tea"))))
    // 4 IOExceptions, then 2 CircuitBreakerOpenExceptions: fetchPrice was not called again
    val state = breaker.state // Open
    // end
    assertEquals(calls.get, 4)
    assertEquals(state, CircuitBreaker.State.Open)
    assert(outcomes.take(4).forall(_.failed.get.isInstanceOf[java.io.IOException]))
    assert(outcomes.drop(4).forall(_.failed.get.isInstanceOf[CircuitBreakerOpenException]))
