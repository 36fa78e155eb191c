package weft.interop

import java.util.concurrent.{CancellationException, CompletableFuture, CompletionException}
import scala.concurrent.{ExecutionContext, Future as ScalaFuture, Promise as ScalaPromise}
import scala.util.{Failure, Success, Try}
import weft.{Future, Listener}

/**
 * Conversions between weft futures and `scala.concurrent.Future` / `CompletableFuture`.
 *
 * Cancellation: a `CompletableFuture` can be cancelled, so cancelling either side of a
 * `CompletableFuture` conversion cancels the other. A `scala.concurrent.Future` cannot be
 * cancelled: cancelling its weft view completes the view only; the Scala computation goes on.
 */
extension [T](f: ScalaFuture[T])
  /** A weft view of this Scala future (completed on the Scala future's completing thread). */
  def asWeft: Future[T] =
    Future.withResolver[T](r => f.onComplete(r.complete)(using ExecutionContext.parasitic))

extension [T](f: Future[T])
  /** A Scala future completed with this future's result. */
  def asScala: ScalaFuture[T] =
    val p = ScalaPromise[T]()
    f.onComplete(Listener((res, _) => p.tryComplete(res)))
    p.future

  /** A `CompletableFuture` completed with this future's result; cancelling it cancels this. */
  def asCompletableFuture: CompletableFuture[T] =
    val cf = new CompletableFuture[T]:
      override def cancel(mayInterruptIfRunning: Boolean): Boolean =
        val done = super.cancel(mayInterruptIfRunning)
        f.cancel()
        done
    f.onComplete(Listener { (res, _) =>
      res match
        case Success(v)                        => cf.complete(v)
        case Failure(e: CancellationException) => cf.cancel(false)
        case Failure(e)                        => cf.completeExceptionally(e)
    })
    cf

extension [T](cf: CompletableFuture[T])
  /**
   * A weft view of this `CompletableFuture`; cancelling the view cancels `cf`. Exceptions are
   * unwrapped from `CompletionException`.
   */
  def asWeft: Future[T] =
    Future.withResolver[T]: r =>
      r.onCancel(() => cf.cancel(true))
      cf.whenComplete: (v, e) =>
        if e == null then r.resolve(v)
        else
          r.reject(e match
            case c: CompletionException if c.getCause != null => c.getCause
            case other                                        => other
          )
