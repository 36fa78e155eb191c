package weft
package internal.futures

import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Failure, Success, Try}

/**
 * The listeners behind the future combinators of `futureOps.scala` and `object Future`: first
 * success (`alt`, `altCancelling`, `awaitFirst`) and `zip`.
 */
private[weft] object FutureCombinators:

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
