package weft.resilience

import scala.concurrent.duration.FiniteDuration
import weft.internal.runtime.DurationText

/**
 * Thrown (or returned as a `Left` by [[CircuitBreaker.runEither]]) when a [[CircuitBreaker]]
 * rejects a call without running it: it is open, or half-open with all its probe calls under
 * way. Carries no stack trace: it is an expected answer, and cheap to make.
 *
 * @param state
 *   the breaker's state when it rejected the call
 * @param retryAfter
 *   how long until the breaker half-opens (zero when half-open: a probe may end any time)
 */
final class CircuitBreakerOpenException(
    val state: CircuitBreaker.State,
    val retryAfter: FiniteDuration
) extends RuntimeException(
      s"the circuit breaker is $state: call rejected (retry after ${DurationText(retryAfter)})",
      null,
      false,
      false
    )
