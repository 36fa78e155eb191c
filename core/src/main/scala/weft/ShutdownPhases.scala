package weft

import java.util.concurrent.{CountDownLatch, TimeUnit}
import scala.concurrent.duration.FiniteDuration
import weft.internal.futures.RunnableFuture

/**
 * The phases of a [[WeftApp]]'s shutdown, run by its shutdown hook (a JVM thread): request,
 * drain, cancel. Apart from the hook so that tests can run them without a signal.
 */
private[weft] object ShutdownPhases:

  /** How a shutdown ended: drained, or cut off with this many futures still running. */
  enum Outcome:
    case Drained
    case CutOff(stillRunning: Int)
    case Cancelled // nobody observed the request: cancelled at once, as before phases

  /**
   * Requests `shutdown`, then waits up to `drainGrace` for `ended` (the app's scope has ended).
   * If the app never observed the request (so nothing would drain), or the drain deadline
   * passes, `cancel()` runs (after `cutOff` with the number of futures still running under
   * `app`, in the second case) and the wait goes on up to `shutdownGrace` for the cancelled
   * scope to end. A wait that is interrupted ends at once (the JVM is going down anyway).
   */
  def stop(
      shutdown: Shutdown,
      drainGrace: FiniteDuration,
      shutdownGrace: FiniteDuration,
      ended: CountDownLatch,
      app: () => Future[?] | Null,
      cutOff: Int => Unit,
      cancel: () => Unit
  ): Outcome =
    shutdown.request(): Unit
    val outcome =
      if !shutdown.isObserved then Outcome.Cancelled
      else if await(ended, drainGrace) then Outcome.Drained
      else
        val running = app() match
          case null => 0
          case f    => runningUnder(f)
        // the app may end between the deadline and the count: then nothing was cut off
        if ended.getCount == 0 then Outcome.Drained
        else
          try cutOff(running)
          catch case e: Throwable => e.printStackTrace()
          Outcome.CutOff(running)
    if outcome != Outcome.Drained then
      cancel()
      await(ended, shutdownGrace): Unit
    outcome

  private def await(latch: CountDownLatch, d: FiniteDuration): Boolean =
    try latch.await(d.toNanos, TimeUnit.NANOSECONDS)
    catch case _: InterruptedException => latch.getCount == 0

  /**
   * The futures still running under `f`: its children and theirs, nested groups looked
   * through, `f` itself not included. A snapshot, taken when a drain deadline passes, so that
   * the report says how much work the cancellation cuts off.
   */
  def runningUnder(f: Future[?]): Int = f match
    case r: RunnableFuture[?] => running(r.childScope)
    case _                    => 0

  private def running(g: CompletionGroup | Null): Int =
    if g == null then 0
    else
      var n = 0
      for m <- g.memberSnapshot do
        m match
          case r: RunnableFuture[?]    => n += 1 + running(r.childScope)
          case nested: CompletionGroup => n += running(nested)
          case f: Future[?] => if f.poll().isEmpty then n += 1 // a task with a thread (IO)
          case _            => () // a timer, a linked promise: nothing runs
      n
