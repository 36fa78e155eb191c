package weft

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import scala.jdk.CollectionConverters.*
import scala.util.{Failure, Success}
import weft.internal.async.Cancellation
import weft.internal.futures.{CoreFuture, RunnableFuture}

/**
 * Runs `bodies` at once, each on its own fiber, and returns the value of the first to succeed.
 * The others are then cancelled, and waited for before this returns: a loser's value, if it
 * produced one meanwhile, is dropped. A body that fails does not end the race while another
 * may still succeed.
 *
 * If every body fails, throws an [[AllFailedException]] listing the failures in the order they
 * happened. If the caller's scope is cancelled, every body is cancelled and waited for, and a
 * `CancellationException` is thrown, with the bodies' own failures (not those their
 * cancellation caused) added to it as suppressed.
 *
 * A body's failure before the win is part of the race and is dropped with it. A loser's own
 * failure after the win (not the cancellation, nor an interrupt or an exception caused by it)
 * is handed to the caller's scope as a failure after a cancel: reported to
 * [[UnobservedFailures]], or attached to the failure of a failing `supervised` scope. The
 * winner's value is returned either way.
 *
 * To race futures that are already running, use `futures.awaitFirstWithCancel` (or
 * `Future.altCancelling`), which neither owns nor joins them.
 *
 * {{{
 * val page = raceSuccess(fetchFrom(mirror1), fetchFrom(mirror2)) // the first good answer
 * }}}
 * @throws IllegalArgumentException
 *   if `bodies` is empty (such a race could never succeed)
 */
def raceSuccess[T](bodies: (Async ?=> T)*)(using Async): T =
  require(bodies.nonEmpty, "raceSuccess needs at least one body")
  Cancellation.check("raceSuccess")
  // Each body completes `winner` with its value, or records its failure; the last failure
  // completes it with all of them. The nested scope's end cancels and joins the losers.
  // `RaceSuccessSuite` re-checks both ends and the join.
  val winner = CoreFuture[T]()
  val failures = ConcurrentLinkedQueue[Throwable]()
  val left = AtomicInteger(bodies.size)
  val scope = summon[Async].group
  try
    Async.group:
      bodies.foreach: body =>
        Future:
          try winner.tryComplete(Success(body)): Unit
          catch
            case e: Throwable =>
              failures.add(e)
              if left.decrementAndGet() == 0 then
                winner.tryComplete(Failure(AllFailedException(failures.asScala.toList))): Unit
              else if won(winner) && !RunnableFuture.provokedByCancel(e) then
                // A loser's own failure after the win: nobody reads `failures` any more, so it
                // goes to the caller's scope as a late failure (`LateFailureCombinatorsSuite`).
                scope.failedAfterCancel(e)
      winner.await
  catch
    case e: Throwable if !won(winner) && !isOutcome(winner, e) =>
      // The caller was cancelled (or interrupted) before any body won: the bodies' own
      // failures, recorded up to the join above, go with what is thrown.
      failures.forEach: f =>
        if (f ne e) && !RunnableFuture.provokedByCancel(f) then e.addSuppressed(f)
      throw e

/** Whether a body of the race has succeeded. */
private def won(winner: CoreFuture[?]): Boolean = winner.isDone && winner.resultNow.isSuccess

/** Whether `e` is the race's own outcome: the [[AllFailedException]] of every body failing. */
private def isOutcome(winner: CoreFuture[?], e: Throwable): Boolean =
  winner.isDone && winner.resultNow.failed.toOption.exists(_ eq e)

/**
 * Every one of several alternatives failed ([[raceSuccess]]): [[failures]] lists their
 * exceptions in the order they happened. The first is also the `cause`, the others are
 * `suppressed`, so a printed stack trace shows them all.
 *
 * @param failures
 *   the failures, first to last (at least one)
 */
final class AllFailedException(val failures: List[Throwable])
    extends RuntimeException(
      s"all ${failures.size} alternatives failed; the first with: ${failures.headOption.orNull}",
      failures.headOption.orNull
    ):
  failures.drop(1).foreach(addSuppressed)
