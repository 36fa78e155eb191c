package weft

import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Failure, Success, Try}

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
      val remaining = AtomicInteger(2)
      def onEither(res: Try[Any]): Unit = res match
        case Failure(e) => r.reject(e)
        case Success(_) =>
          if remaining.decrementAndGet() == 0 then
            r.resolve((CoreFutures.valueOf(f1), CoreFutures.valueOf(f2)))
      f1.onComplete(Listener((res, _) => onEither(res)))
      f2.onComplete(Listener((res, _) => onEither(res)))

  /** Prepends this future's value to a future of a tuple: `f1 *: f2 *: f3.zip(f4)`. */
  def *:[U <: Tuple](f2: Future[U]): Future[T *: U] =
    f1.zip(f2).mapValue((t, u) => t *: u)

  /** The first of the two to succeed; if both fail, the failure of the last to fail. */
  def alt(f2: Future[T]): Future[T] = Future.alt(f1, f2)

  /** As [[alt]], and cancels the other future once one succeeds. */
  def altC(f2: Future[T]): Future[T] = Future.altC(f1, f2)

  /**
   * A future of `f(value)`; `f` runs on the completing thread, so it must be quick. A failure
   * (or an exception thrown by `f`) is passed on.
   */
  def mapValue[U](f: T => U): Future[U] =
    Future.withResolver[U]: r =>
      f1.onComplete(Listener((res, _) => r.complete(res.map(f))))

extension (fs: Future.type)
  /** The first of `futures` to succeed; if all fail, the failure of the last to fail. */
  def alt[T](futures: Future[T]*): Future[T] =
    CoreFutures.firstSuccess(futures, cancelLosers = false)

  /** As [[alt]], and cancels the others once one succeeds. */
  def altC[T](futures: Future[T]*): Future[T] =
    CoreFutures.firstSuccess(futures, cancelLosers = true)

extension [T](futures: Seq[Future[T]])

  /**
   * Awaits every future and returns their values in order; throws the first failure to occur
   * (without waiting for the rest).
   */
  def awaitAll(using Async): Seq[T] =
    if futures.isEmpty then Seq.empty
    else
      val all = Future.withResolver[Unit]: r =>
        val remaining = AtomicInteger(futures.size)
        val l = Listener[Try[T]]: (res, _) =>
          res match
            case Failure(e) => r.reject(e)
            case Success(_) => if remaining.decrementAndGet() == 0 then r.resolve(())
        futures.foreach(_.onComplete(l))
      all.await
      futures.map(CoreFutures.valueOf)

  /**
   * Awaits the first future to succeed and returns its value; if all fail, throws the last
   * failure.
   */
  def awaitFirst(using Async): T = CoreFutures.firstSuccess(futures, cancelLosers = false).await

  /** As [[awaitFirst]], and cancels the others once one succeeds. */
  def awaitFirstWithCancel(using Async): T =
    CoreFutures.firstSuccess(futures, cancelLosers = true).await

private object CoreFutures:

  /** The value of a future known to have succeeded. */
  def valueOf[T](f: Future[T]): T = f.poll() match
    case Some(Success(v)) => v
    case other => throw IllegalStateException(s"future not successfully completed: $other")

  def firstSuccess[T](futures: Seq[Future[T]], cancelLosers: Boolean): Future[T] =
    require(futures.nonEmpty, "alt/awaitFirst needs at least one future")
    Future.withResolver[T]: r =>
      val remaining = AtomicInteger(futures.size)
      val l = Listener[Try[T]]: (res, src) =>
        res match
          case Success(v) =>
            r.resolve(v)
            if cancelLosers then futures.foreach(f => if f ne src then f.cancel())
          case Failure(e) =>
            if remaining.decrementAndGet() == 0 then r.reject(e)
      futures.foreach(_.onComplete(l))
