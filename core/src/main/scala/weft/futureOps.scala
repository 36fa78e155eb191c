package weft

import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Failure, Success, Try}
import weft.internal.futures.FutureCombinators

/**
 * Combinators on futures. None of them starts a thread: each completes a new future from
 * listeners on its inputs, so they cost an allocation or two, not a context switch.
 */
extension [T](f1: Future[T])

  /**
   * A future of both values; fails with the first failure of either (without waiting for
   * the other).
   */
  def zip[U](f2: Future[U]): Future[(T, U)] =
    Future.withResolver[(T, U)]: r =>
      val l = FutureCombinators.Zip(f1, f2, r)
      r.onCancel(() => l.dropFromBoth())
      f1.onComplete(l)
      f2.onComplete(l)

  /** Prepends this future's value to a future of a tuple: `f1 *: f2 *: f3.zip(f4)`. */
  def *:[U <: Tuple](f2: Future[U]): Future[T *: U] =
    f1.zip(f2).mapValue((t, u) => t *: u)

  /** The first of the two to succeed; if both fail, the failure of the last to fail. */
  def alt(f2: Future[T]): Future[T] = Future.alt(f1, f2)

  /** As [[alt]], and cancels the other future once one succeeds. */
  def altCancelling(f2: Future[T]): Future[T] = Future.altCancelling(f1, f2)

  /** [[altCancelling]] by the name the original specification gives it (`C` for cancelling). */
  def altC(f2: Future[T]): Future[T] = Future.altCancelling(f1, f2)

  /**
   * A future of `f(value)`; `f` runs on the completing thread, so it must be quick. A failure
   * (or an exception thrown by `f`) is passed on.
   */
  def mapValue[U](f: T => U): Future[U] =
    Future.withResolver[U]: r =>
      val l = Listener[Try[T]]((res, _) => r.complete(res.map(f)))
      r.onCancel(() => f1.dropListener(l))
      f1.onComplete(l)

extension [T](futures: Seq[Future[T]])

  /**
   * Awaits every future and returns their values in order; throws the first failure to occur
   * (without waiting for the rest).
   */
  def awaitAll(using Async): Seq[T] =
    if futures.isEmpty then Seq.empty
    else
      val all = Promise[Unit]()
      val remaining = AtomicInteger(futures.size)
      val l = Listener[Try[T]]: (res, _) =>
        res match
          case Failure(e) => all.tryComplete(Failure(e))
          case Success(_) =>
            if remaining.decrementAndGet() == 0 then all.tryComplete(Success(())): Unit
      futures.foreach(_.onComplete(l))
      // Dropped however the wait ends (a failure, or the caller cancelled): a long-lived future
      // must not collect the listeners of every wait that gave up on it (`CombinatorsSuite`).
      try all.future.await
      finally futures.foreach(_.dropListener(l))
      futures.map(FutureCombinators.valueOf)

  /**
   * Awaits the first future to succeed and returns its value; if all fail, throws the last
   * failure.
   */
  def awaitFirst(using Async): T =
    FutureCombinators.awaitFirstSuccess(futures, cancelLosers = false)

  /** As [[awaitFirst]], and cancels the others once one succeeds. */
  def awaitFirstWithCancel(using Async): T =
    FutureCombinators.awaitFirstSuccess(futures, cancelLosers = true)
