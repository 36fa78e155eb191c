package weft.resilience

import scala.concurrent.duration.*

/**
 * How a [[CircuitBreaker]] judges the calls it guards. Defaults are those of resilience4j's
 * breaker, which most JVM users know.
 *
 * While closed, the breaker keeps the outcomes of the last calls in [[window]]; once it holds at
 * least [[minimumCalls]] outcomes, it opens as soon as the share of failures reaches
 * [[failureRateThreshold]] percent, or the share of calls that took [[slowCallDuration]] or more
 * reaches [[slowCallRateThreshold]] percent. Open, it rejects every call for [[waitInOpen]], then
 * half-opens: it lets [[halfOpenCalls]] probe calls through, and when all have ended it closes
 * if their rates are under the thresholds, or opens again.
 *
 * {{{
 * val config = CircuitBreakerConfig(
 *   failureRateThreshold = 50, // percent
 *   window = CircuitBreakerConfig.Window.Count(20), // the last 20 calls
 *   minimumCalls = 10,
 *   waitInOpen = 30.seconds,
 *   isFailure = !_.isInstanceOf[NoSuchElementException] // "not found" is an answer, not a fault
 * )
 * }}}
 *
 * @param failureRateThreshold
 *   percent of failed calls, in (0, 100], that opens the breaker (default 50)
 * @param slowCallRateThreshold
 *   percent of slow calls, in (0, 100], that opens the breaker (default 100: only when all are)
 * @param slowCallDuration
 *   a call lasting this long or longer is slow (> 0, default 60 seconds)
 * @param window
 *   the outcomes judged while closed: the last `n` calls, or the calls of the last period
 *   (default the last 100 calls)
 * @param minimumCalls
 *   outcomes needed in the window before the rates are judged (>= 1, default 100; for a count
 *   window, at most its size is needed)
 * @param waitInOpen
 *   how long the breaker stays open before half-opening (> 0, default 60 seconds)
 * @param halfOpenCalls
 *   probe calls let through when half-open (>= 1, default 10)
 * @param isFailure
 *   which exceptions of a call are failures (default all); an exception for which it is false
 *   counts as a success (the service answered). A cancelled or interrupted call, and a fatal
 *   error, count as nothing either way.
 */
final case class CircuitBreakerConfig(
    failureRateThreshold: Double = 50,
    slowCallRateThreshold: Double = 100,
    slowCallDuration: FiniteDuration = 60.seconds,
    window: CircuitBreakerConfig.Window = CircuitBreakerConfig.Window.Count(100),
    minimumCalls: Int = 100,
    waitInOpen: FiniteDuration = 60.seconds,
    halfOpenCalls: Int = 10,
    isFailure: Throwable => Boolean = _ => true
):
  CircuitBreakerConfig.percent(failureRateThreshold, "failureRateThreshold")
  CircuitBreakerConfig.percent(slowCallRateThreshold, "slowCallRateThreshold")
  RateLimiter.positive(slowCallDuration, "slowCallDuration")
  window match
    case CircuitBreakerConfig.Window.Count(calls) =>
      RateLimiter.atLeastOne(calls, "Window.Count: calls")
    case CircuitBreakerConfig.Window.Time(duration) =>
      RateLimiter.positive(duration, "Window.Time: duration"): Unit
    case null => throw IllegalArgumentException("window must not be null")
  RateLimiter.atLeastOne(minimumCalls, "minimumCalls")
  RateLimiter.positive(waitInOpen, "waitInOpen")
  RateLimiter.atLeastOne(halfOpenCalls, "halfOpenCalls")
  require(isFailure != null, "isFailure must not be null")

/** The kinds of window. */
object CircuitBreakerConfig:

  /** Which outcomes a closed breaker judges. */
  enum Window:

    /** The outcomes of the last `calls` calls (>= 1). */
    case Count(calls: Int)

    /**
     * The outcomes of the calls that ended in the last `duration` (> 0). The window slides in
     * steps of a tenth of `duration`: an outcome is forgotten between 0.9 and 1 `duration` after
     * it was recorded.
     */
    case Time(duration: FiniteDuration)

  private def percent(p: Double, name: String): Unit =
    if !(p > 0 && p <= 100) then
      throw IllegalArgumentException(s"$name must be in (0, 100], got $p")
