package weft.resilience

import java.util.concurrent.{CancellationException, TimeUnit}
import java.util.concurrent.locks.ReentrantLock
import scala.concurrent.duration.FiniteDuration
import scala.util.control.NonFatal

/**
 * Stops calling a failing service for a while, then probes it: the circuit-breaker pattern.
 *
 * Closed, the breaker runs every call and records its outcome; when the failures (or slow calls)
 * of its window reach the threshold of its [[CircuitBreakerConfig]], it opens. Open, it rejects
 * every call with a [[CircuitBreakerOpenException]], at once and without running it. After
 * `waitInOpen` it half-opens: it lets `halfOpenCalls` probe calls through and rejects the rest;
 * when every probe has ended it closes (with an empty window) if the probes' rates are under the
 * thresholds, else opens again. No timer or thread is involved: the breaker half-opens at the
 * first call (or [[state]] read) after `waitInOpen`.
 *
 * Safe to use from many fibers at once. Each call is counted exactly once, in the state that let
 * it through: a call let through while closed that ends after the breaker opened is not counted
 * (its state is gone), nor is a call that was cancelled or interrupted (a half-open probe so
 * ended gives its place to another probe).
 *
 * {{{
 * val breaker = CircuitBreaker(CircuitBreakerConfig(minimumCalls = 10))
 * // the price, the service's failure, or a CircuitBreakerOpenException while it is down
 * def price(item: String): Int = breaker.run(pricingService.price(item))
 * }}}
 *
 * @param config
 *   how the breaker judges calls: thresholds, window, waits, probes
 */
final class CircuitBreaker private[weft] (val config: CircuitBreakerConfig, clock: Clock):
  import CircuitBreaker.State

  private val lock = ReentrantLock()
  private val slowNanos = config.slowCallDuration.toNanos
  private val minimumCalls = config.window match
    case CircuitBreakerConfig.Window.Count(n) => math.min(n, config.minimumCalls)
    case _                                    => config.minimumCalls

  // Guarded by `lock`; `current` is volatile for `toString` only.
  @volatile private var current: State = State.Closed
  private var epoch = 0L // incremented at every transition: a call counts only in its own
  private val window = OutcomeWindow(config.window, clock.nanoTime())
  private var openUntil = 0L
  private var probesOut = 0 // half-open: probes let through and not ended
  private var probesDone = 0 // half-open: probes ended
  private var probeFailures = 0
  private var probeSlows = 0
  private var rejected = 0L

  /**
   * Runs `op` if the breaker lets it through, records its outcome, and returns its result or
   * rethrows its exception.
   * @throws CircuitBreakerOpenException
   *   if the breaker is open, or half-open with all its probes under way (`op` is not run)
   */
  def run[T](op: => T): T =
    val start = clock.nanoTime()
    recorded(admit(), start, op)(_ => CircuitBreaker.Success)

  /**
   * Runs `op` as [[run]] does, counting a `Left` as a failure. A rejected call returns
   * `Left(CircuitBreakerOpenException)`; an exception `op` throws is counted as in [[run]] and
   * rethrown.
   */
  def runEither[E, T](op: => Either[E, T]): Either[E | CircuitBreakerOpenException, T] =
    val start = clock.nanoTime()
    val admitted =
      try admit()
      catch case e: CircuitBreakerOpenException => return Left(e)
    recorded(admitted, start, op)(r =>
      if r.isLeft then CircuitBreaker.Failure else CircuitBreaker.Success
    )

  /** Runs an admitted `op` and records its outcome: `outcome` of its value, or its exception's. */
  private inline def recorded[R](admitted: Long, start: Long, inline op: R)(
      inline outcome: R => Int
  ): R =
    val result =
      try op
      catch
        case e: Throwable =>
          record(admitted, start, outcomeOf(e))
          throw e
    record(admitted, start, outcome(result))
    result

  /** The state now (half-open once `waitInOpen` has passed since it opened). */
  def state: State =
    lock.lock()
    try
      halfOpenIfDue(clock.nanoTime())
      current
    finally lock.unlock()

  /** A snapshot of the breaker's state and of the outcomes it judges now. */
  def metrics: CircuitBreaker.Metrics =
    lock.lock()
    try
      val now = clock.nanoTime()
      halfOpenIfDue(now)
      window.advance(now)
      if current == State.HalfOpen then
        CircuitBreaker.Metrics(current, probesDone, probeFailures, probeSlows, rejected)
      else CircuitBreaker.Metrics(current, window.calls, window.failures, window.slows, rejected)
    finally lock.unlock()

  /**
   * The epoch the call is let through in; or the rejection, thrown, made under the same lock so
   * that it tells the state that rejected the call.
   */
  private def admit(): Long =
    lock.lock()
    try
      val now = clock.nanoTime()
      halfOpenIfDue(now)
      current match
        case State.Closed => epoch
        case State.HalfOpen if probesOut + probesDone < config.halfOpenCalls =>
          probesOut += 1
          epoch
        case _ =>
          rejected += 1
          val left = if current == State.Open then math.max(0L, openUntil - now) else 0L
          throw CircuitBreakerOpenException(current, FiniteDuration(left, TimeUnit.NANOSECONDS))
    finally lock.unlock()

  /** How an exception of a call counts: ignored, failure or success. */
  private def outcomeOf(e: Throwable): Int = e match
    case _: CancellationException | _: InterruptedException => CircuitBreaker.Ignored
    case _ if !NonFatal(e)                                  => CircuitBreaker.Ignored
    case _ =>
      val failed =
        try config.isFailure(e)
        catch
          case NonFatal(p) =>
            e.addSuppressed(p) // a broken predicate: count a failure, keep its error visible
            true
      if failed then CircuitBreaker.Failure else CircuitBreaker.Success

  /** Counts the outcome of a call let through in `callEpoch` and started at `start`. */
  private def record(callEpoch: Long, start: Long, outcome: Int): Unit =
    lock.lock()
    try
      val now = clock.nanoTime()
      if callEpoch == epoch then
        val failed = outcome == CircuitBreaker.Failure
        val slow = now - start >= slowNanos
        current match
          case State.Closed if outcome != CircuitBreaker.Ignored =>
            window.record(failed, slow, now)
            if window.calls >= minimumCalls && tripped(window.calls, window.failures, window.slows)
            then open(now)
          case State.HalfOpen =>
            probesOut -= 1
            if outcome != CircuitBreaker.Ignored then
              probesDone += 1
              if failed then probeFailures += 1
              if slow then probeSlows += 1
              if probesDone == config.halfOpenCalls then
                if tripped(probesDone, probeFailures, probeSlows) then open(now)
                else transition(State.Closed)
          case _ => ()
    finally lock.unlock()

  private def tripped(calls: Int, failures: Int, slows: Int): Boolean =
    failures * 100.0 >= config.failureRateThreshold * calls ||
      slows * 100.0 >= config.slowCallRateThreshold * calls

  private def halfOpenIfDue(now: Long): Unit =
    if current == State.Open && now - openUntil >= 0L then transition(State.HalfOpen)

  private def open(now: Long): Unit =
    openUntil = now + config.waitInOpen.toNanos
    transition(State.Open)

  private def transition(to: State): Unit =
    epoch += 1
    current = to
    window.clear()
    probesOut = 0; probesDone = 0; probeFailures = 0; probeSlows = 0

  override def toString: String = s"CircuitBreaker(${current})"

/** Factory and states of [[CircuitBreaker]]. */
object CircuitBreaker:

  /** A breaker judging calls as `config` says (by default, [[CircuitBreakerConfig]]'s defaults). */
  def apply(config: CircuitBreakerConfig = CircuitBreakerConfig()): CircuitBreaker =
    new CircuitBreaker(config, Clock.current())

  /** The states of a breaker. */
  enum State:
    /** Calls run; their outcomes are judged. */
    case Closed

    /** Calls are rejected until `waitInOpen` has passed. */
    case Open

    /** A limited number of probe calls run; the others are rejected. */
    case HalfOpen

  /**
   * What a breaker judges now: closed, the outcomes in its window; half-open, those of the probes
   * ended; open, nothing (zeros).
   *
   * @param state
   *   the state
   * @param calls
   *   outcomes counted
   * @param failedCalls
   *   of which failures
   * @param slowCalls
   *   of which slow calls
   * @param rejectedCalls
   *   calls rejected since the breaker was made
   */
  final case class Metrics(
      state: State,
      calls: Int,
      failedCalls: Int,
      slowCalls: Int,
      rejectedCalls: Long
  ):
    /** Failed calls in percent of [[calls]] (0 when no call was counted). */
    def failureRate: Double = if calls == 0 then 0.0 else failedCalls * 100.0 / calls

    /** Slow calls in percent of [[calls]] (0 when no call was counted). */
    def slowCallRate: Double = if calls == 0 then 0.0 else slowCalls * 100.0 / calls

  private val Success = 0
  private val Failure = 1
  private val Ignored = 2
