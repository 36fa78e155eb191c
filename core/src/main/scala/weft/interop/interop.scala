package weft.interop

import java.util.concurrent.{CancellationException, CompletableFuture, CompletionException}
import scala.concurrent.{ExecutionContext, Future as ScalaFuture, Promise as ScalaPromise}
import scala.util.{Failure, Success, Try}
import weft.{Future, Listener}
import weft.internal.futures.CoreFuture

/**
 * Conversions between weft futures and `scala.concurrent.Future` / `CompletableFuture`.
 *
 * {{{
 * import weft.interop.*
 * Async.blocking:
 *   val user = httpClient.sendAsync(request, handler).asWeft.await // a CompletableFuture
 *   val total: scala.concurrent.Future[Int] = Future(40 + 2).asScala // for a Scala API
 * }}}
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

  /**
   * A `CompletableFuture` completed with this future's result; cancelling it cancels this. The
   * two always agree: if this future completes while the view is being cancelled, the view
   * takes this future's result and its `cancel` returns `false`.
   */
  def asCompletableFuture: CompletableFuture[T] =
    val cf = CompletableView(f)
    f.onComplete(Listener((res, _) => cf.settle(res)))
    cf

extension [T](cf: CompletableFuture[T])
  /**
   * A weft view of this `CompletableFuture`; cancelling the view cancels `cf`. Exceptions are
   * unwrapped from `CompletionException`. The two always agree: if `cf` completes while the
   * view is being cancelled, the view takes `cf`'s result.
   */
  def asWeft: Future[T] =
    val view = WeftView(cf)
    cf.whenComplete((_, _) => view.settle())
    view

/**
 * The `CompletableFuture` view of a weft future `f`.
 *
 * ==Agreeing under a race==
 * Cancelling the view cancels `f` first and then copies `f`'s result into the view, instead of
 * cancelling the view first: when `f` completes at that very moment, `f.cancel()` does nothing,
 * and cancelling the view first would leave it cancelled while `f` holds a value. Copying is
 * idempotent, so the listener on `f` and `cancel` may both do it (InteropSuite, "stress:
 * cancelling the CompletableFuture view").
 */
final private class CompletableView[T](f: Future[T]) extends CompletableFuture[T]:
  override def cancel(mayInterruptIfRunning: Boolean): Boolean =
    f.cancel()
    f.poll() match
      case Some(r) => settle(r)
      case None    => () // a future whose cancel is not immediate: its listener settles the view
    isCancelled

  /** Completes the view with `f`'s result `r` (the first completion wins; both agree). */
  def settle(r: Try[T]): Unit = r match
    case Success(v)                        => complete(v)
    case Failure(_: CancellationException) => super.cancel(false)
    case Failure(e)                        => completeExceptionally(e)

/**
 * The weft view of a `CompletableFuture` `cf`: as [[CompletableView]], cancelling it cancels `cf`
 * first and then copies `cf`'s outcome, so that both agree if `cf` completes meanwhile.
 */
final private class WeftView[T](cf: CompletableFuture[T]) extends CoreFuture[T]:
  override def cancel(): Unit =
    cf.cancel(true)
    settle()

  /** Completes the view with `cf`'s outcome, once `cf` is done. */
  def settle(): Unit =
    if cf.isDone then
      tryComplete(
        if cf.isCancelled then Failure(CancellationException("CompletableFuture cancelled"))
        else
          try Success(cf.join())
          catch
            case c: CompletionException if c.getCause != null => Failure(c.getCause)
            case e: Throwable                                 => Failure(e)
      )
