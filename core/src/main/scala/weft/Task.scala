package weft

import java.util.concurrent.CancellationException
import scala.concurrent.duration.{FiniteDuration, NANOSECONDS}
import scala.util.control.NonFatal
import scala.util.{Failure, Success, Try}
import weft.internal.async.Cancellation

/**
 * A template for a runnable future: `run` starts a new `Future` of `body` each time it is called,
 * so a task is a value that can be run many times (it is referentially transparent).
 *
 * A task may carry a [[TaskSchedule]]; the future it runs then repeats the body as the schedule
 * says, and ends with the value the table in [[TaskSchedule]] gives:
 * {{{
 * Async.blocking:
 *   val poller = Task(pollQueue()).schedule(TaskSchedule.Every(1.second, maxRepetitions = 10)).run
 *   ...
 *   poller.cancel() // or let the scope's end cancel it
 * }}}
 * A task started in a scope is a future of that scope: the scope's end cancels it like any
 * other. For retrying one call until it succeeds, [[retry]] is simpler.
 *
 * A cancel during the pause after a failed run (`RepeatUntilSuccess`) leaves the future
 * cancelled, and that run's failure is neither the result nor reported: by design, as the
 * schedule would have run the body again after it (the failure was one it tolerates). A failure
 * that ends the schedule is the future's result at once, before any pause.
 *
 * @param body
 *   the computation
 * @param taskSchedule
 *   the repetition, or `None` to run once
 */
class Task[+T](val body: Async ?=> T, val taskSchedule: Option[TaskSchedule] = None):
  // The algorithm. One fiber runs the whole schedule: a loop that runs the body in a nested scope
  // (futures it starts are finished before the next run), decides from the outcome and the run
  // count whether to stop, and otherwise `sleep`s for the pause, on the shared timer thread.
  // Cancellation interrupts the run or the pause; the loop also checks for it between runs, so a
  // cancelled task never starts another run.

  /** Starts the task as a new future in the current scope. */
  def run(using Async): Future[T] = taskSchedule match
    case None    => Future(body)
    case Some(s) => Future(Task.repeat(body, s))

  /** The same body with the schedule `s` (replacing any previous one). */
  def schedule(s: TaskSchedule): Task[T] = Task(body, Some(s))

/** Running schedules. */
object Task:

  /** A task running `body` once. */
  def apply[T](body: Async ?=> T): Task[T] = new Task(body)

  /** A task running `body` with the given schedule. */
  def apply[T](body: Async ?=> T, taskSchedule: Option[TaskSchedule]): Task[T] =
    new Task(body, taskSchedule)

  /** The longest pause, in milliseconds, that a `FiniteDuration` can hold. */
  private val MaxPauseMillis: Long = Long.MaxValue / 1_000_000L

  private def nanos(millis: Long): Long = math.min(millis, MaxPauseMillis) * 1_000_000L

  private def saturatingTimes(a: Long, b: Long): Long =
    if a == 0 || b == 0 then 0
    else if a > MaxPauseMillis / b then MaxPauseMillis
    else math.min(a * b, MaxPauseMillis)

  /**
   * Whether a run succeeded: it returned, and not a failed `Try` (a body of type `Try` that
   * returns a `Failure` failed, as in gears; TaskSuite, "a body returning a Failure").
   */
  private def succeeded(outcome: Try[?]): Boolean = outcome match
    case Success(_: Failure[?]) => false
    case o                      => o.isSuccess

  /** Runs `body` repeatedly on the current fiber, as `s` says; returns or throws the outcome. */
  private[weft] def repeat[T](body: Async ?=> T, s: TaskSchedule)(using Async): T =
    import TaskSchedule.*
    val max = s.maxRepetitions
    val untilSuccess = s.isInstanceOf[RepeatUntilSuccess]
    val clock = summon[Async].support.clock
    var runs = 0L
    var factor = 1L // multiplier of the next pause (exponential, fibonacci)
    var previousFib = 0L
    var nextStart = clock.nanoTime() // start of the next run (every)
    var result: Try[T] | Null = null
    while result == null do
      Cancellation.check("Task")
      runs += 1
      val outcome: Try[T] =
        try Success(Async.group(body))
        catch
          case e: CancellationException if Cancellation.pending => throw e
          case NonFatal(e)                                      => Failure(e)
      val last = max != 0 && runs == max
      if last || succeeded(outcome) == untilSuccess then result = outcome
      else
        val pauseNanos: Long = s match
          case Every(millis, _) =>
            nextStart += nanos(millis)
            val now = clock.nanoTime()
            if nextStart - now > 0 then nextStart - now
            else
              nextStart = now
              0L
          case ExponentialBackoff(millis, base, _) =>
            val p = saturatingTimes(millis, factor)
            factor = saturatingTimes(factor, base.toLong)
            nanos(p)
          case FibonacciBackoff(millis, _) =>
            val p = saturatingTimes(millis, factor)
            val next = math.min(factor + previousFib, MaxPauseMillis)
            previousFib = factor
            factor = next
            nanos(p)
          case RepeatUntilFailure(millis, _) => nanos(millis)
          case RepeatUntilSuccess(millis, _) => nanos(millis)
        if pauseNanos > 0 then sleep(FiniteDuration(pauseNanos, NANOSECONDS))
    result.nn.get
