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
      val l = CoreFutures.Zip(f1, f2, r)
      r.onCancel(() => l.dropFromBoth())
      f1.onComplete(l)
      f2.onComplete(l)

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
      futures.map(CoreFutures.valueOf)

  /**
   * Awaits the first future to succeed and returns its value; if all fail, throws the last
   * failure.
   */
  def awaitFirst(using Async): T = CoreFutures.awaitFirstSuccess(futures, cancelLosers = false)

  /** As [[awaitFirst]], and cancels the others once one succeeds. */
  def awaitFirstWithCancel(using Async): T =
    CoreFutures.awaitFirstSuccess(futures, cancelLosers = true)

private[weft] object CoreFutures:

  /** The value of a future known to have succeeded. */
  def valueOf[T](f: Future[T]): T = f.poll() match
    case Some(Success(v)) => v
    case other => throw IllegalStateException(s"future not successfully completed: $other")

  /**
   * A future of the first success among `futures`. Its listener leaves every input once it has
   * a success, or when the returned future is cancelled, so inputs that live long do not keep
   * the listeners of combinators nobody awaits any more.
   */
  def firstSuccess[T](futures: Seq[Future[T]], cancelLosers: Boolean): Future[T] =
    require(futures.nonEmpty, "alt/awaitFirst needs at least one future")
    Future.withResolver[T]: r =>
      val l = FirstSuccess(futures, cancelLosers, r)
      r.onCancel(() => l.dropFromAll())
      futures.foreach(_.onComplete(l))

  /** Awaits [[firstSuccess]]; a caller that gives up cancels it, which drops its listener. */
  def awaitFirstSuccess[T](futures: Seq[Future[T]], cancelLosers: Boolean)(using Async): T =
    val first = firstSuccess(futures, cancelLosers)
    try first.await
    finally first.cancel()

  /** The listener of [[firstSuccess]], registered on every input. */
  private final class FirstSuccess[T](
      futures: Seq[Future[T]],
      cancelLosers: Boolean,
      r: Future.Resolver[T]
  ) extends Listener[Try[T]]:
    val lock: ListenerLock | Null = null
    private val remaining = AtomicInteger(futures.size)

    def complete(res: Try[T], src: Source[Try[T]]): Unit = res match
      case Success(v) =>
        r.resolve(v)
        if cancelLosers then futures.foreach(f => if f ne src then f.cancel())
        dropFromAll()
      case Failure(e) =>
        if remaining.decrementAndGet() == 0 then r.reject(e)

    def dropFromAll(): Unit = futures.foreach(_.dropListener(this))

  /** The listener of `zip`, registered on both inputs; a failure leaves the other one. */
  final class Zip[T, U](f1: Future[T], f2: Future[U], r: Future.Resolver[(T, U)])
      extends Listener[Try[Any]]:
    val lock: ListenerLock | Null = null
    private val remaining = AtomicInteger(2)

    def complete(res: Try[Any], src: Source[Try[Any]]): Unit = res match
      case Failure(e) =>
        r.reject(e)
        dropFromBoth()
      case Success(_) =>
        if remaining.decrementAndGet() == 0 then r.resolve((valueOf(f1), valueOf(f2)))

    def dropFromBoth(): Unit =
      f1.dropListener(this)
      f2.dropListener(this)
