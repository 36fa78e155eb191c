package weft

import java.util.concurrent.CancellationException
import scala.compiletime.uninitialized
import scala.util.{Failure, Success, Try}
import weft.internal.futures.{CoreFuture, FutureCombinators, RunnableFuture}

/**
 * A value of type `T` that becomes available later, or fails; a [[Source]] of its `Try[T]`.
 *
 * Futures are either runnable (`Future { body }`: `body` runs on its own virtual thread) or
 * completable (a [[Promise]]'s future, [[Future.now]], [[Future.withResolver]]). Every future
 * completes exactly once; its result never changes afterwards.
 *
 * Obtain the result with `f.await` (the value, or the failure thrown), `f.result` or
 * `Async.await(f)` (the `Try`), all inside an `Async` context.
 *
 * [[cancel]] completes the future at once with `Failure(CancellationException)`; a runnable
 * future's thread is also interrupted and the futures it started are cancelled with it.
 */
trait Future[+T] extends OriginalSource[Try[T]], Cancellable:

  /** Suspends until the future completes and returns its result. */
  final def result(using async: Async): Try[T] = async.await(this)

  /** Suspends until the future completes and returns its value, or throws its failure. */
  final def value(using async: Async): T = async.await(this).get

  /**
   * Cancels the future: if still pending, it completes now with
   * `Failure(CancellationException)`; a runnable future's body is interrupted (deferred while
   * inside `uninterruptible`) and its children cancelled. A failure the body still throws of its
   * own afterwards is reported (see [[UnobservedFailures]]), not dropped.
   */
  def cancel(): Unit

/** Creating futures. */
object Future:

  /**
   * Starts `body` on a new virtual thread, as a member of the current scope.
   *
   * `body` runs with its own nested scope: futures it starts are cancelled and joined when it
   * ends. An exception thrown by `body` completes the future with `Failure`; it never escapes.
   */
  def apply[T](body: Async ?=> T)(using async: Async): Future[T] =
    RunnableFuture.start(body, async)

  /**
   * A future already completed with `result`.
   * @throws NullPointerException
   *   if `result` is `null` (a value may be `null`: `Success(null)`)
   */
  def now[T](result: Try[T]): Future[T] =
    val f = CoreFuture[T]()
    f.tryComplete(CoreFuture.nonNull(result))
    f

  /**
   * The first of `futures` to succeed; if all fail, the failure of the last to fail. Starts no
   * thread. `f1.alt(f2)` is the same for two.
   * @throws IllegalArgumentException
   *   if `futures` is empty
   */
  def alt[T](futures: Future[T]*): Future[T] =
    FutureCombinators.firstSuccess(futures, cancelLosers = false)

  /**
   * As [[alt]], and cancels the others once one succeeds. `f1.altCancelling(f2)` is the same
   * for two.
   * @throws IllegalArgumentException
   *   if `futures` is empty
   */
  def altCancelling[T](futures: Future[T]*): Future[T] =
    FutureCombinators.firstSuccess(futures, cancelLosers = true)

  /** [[altCancelling]] by the name the original specification gives it (`C` for cancelling). */
  def altC[T](futures: Future[T]*): Future[T] = altCancelling(futures*)

  /** Collects futures in completion order: see [[weft.Collector]] (as gears' `Collector`). */
  type Collector[T] = weft.Collector[T]

  /** Creates a [[weft.Collector]]: `Future.Collector(f1, f2)`. */
  val Collector: weft.Collector.type = weft.Collector

  /** A collector that takes more futures while collecting: see [[weft.MutableCollector]]. */
  type MutableCollector[T] = weft.MutableCollector[T]

  /** Creates a [[weft.MutableCollector]]: `Future.MutableCollector[Int]()`. */
  val MutableCollector: weft.MutableCollector.type = weft.MutableCollector

  /** A future already completed with `value`. */
  def successful[T](value: T): Future[T] = now(Success(value))

  /** A future already failed with `error`. */
  def failed[T](error: Throwable): Future[T] = now(Failure(error))

  /**
   * A future completed by a callback-based API through a [[Resolver]]: the bridge from
   * callbacks to direct style. `body` runs at once, on the caller's thread, and must not block.
   */
  def withResolver[T](body: Resolver[T] => Unit): Future[T] =
    val f = ResolverFuture[T]()
    try body(f)
    catch case e: Throwable => f.tryComplete(Failure(e))
    f

  /**
   * Completes a future made by [[Future.withResolver]]. Completions after the first are ignored.
   */
  trait Resolver[-T]:

    /** Completes with `value`. */
    def resolve(value: T): Unit = complete(Success(value))

    /** Completes with the failure `error`. */
    def reject(error: Throwable): Unit = complete(Failure(error))

    /** Completes with `Failure(CancellationException)`. */
    def rejectAsCancelled(): Unit =
      complete(Failure(CancellationException("cancelled by resolver")))

    /**
     * Completes with `result`; ignored if the future is already done.
     * @throws NullPointerException
     *   if `result` is `null` (a value may be `null`: `Success(null)`)
     */
    def complete(result: Try[T]): Unit

    /**
     * Registers `handler`, run once if the future is cancelled before it is resolved (e.g. to
     * cancel the underlying callback operation). Replaces a previous handler.
     */
    def onCancel(handler: () => Unit): Unit

  /** A completable future whose `cancel` also runs the resolver's cancel handler. */
  private final class ResolverFuture[T] extends CoreFuture[T], Resolver[T]:
    @volatile private var cancelHandler: (() => Unit) | Null = uninitialized
    def complete(result: Try[T]): Unit = tryComplete(CoreFuture.nonNull(result))
    def onCancel(handler: () => Unit): Unit = cancelHandler = handler
    override def cancel(): Unit =
      if tryComplete(Failure(CancellationException("future was cancelled"))) then
        val h = cancelHandler
        if h != null then h()

/**
 * A completable future: [[complete]] it from anywhere, await its [[future]] in `Async` code.
 *
 * Cancelling the future completes it with `Failure(CancellationException)`; a later
 * [[complete]] is then ignored (the consumer gave up; the producer need not care). Completing
 * twice is a programming error and throws.
 */
final class Promise[T]:
  private val core = CoreFuture[T]()

  /** The future this promise completes. */
  val future: Future[T] = core

  /**
   * Completes the future with `result`.
   * @throws java.lang.IllegalStateException
   *   if the promise was already completed (not by cancellation)
   * @throws NullPointerException
   *   if `result` is `null` (a value may be `null`: `Success(null)`)
   */
  def complete(result: Try[T]): Unit =
    if !core.tryComplete(CoreFuture.nonNull(result)) then
      val existing = core.resultNow
      existing match
        case Failure(_: CancellationException) => ()
        case _ => throw IllegalStateException(s"Promise already completed with $existing")

  /**
   * Completes the future with `result` unless already done; returns whether this call did.
   * @throws NullPointerException
   *   if `result` is `null`
   */
  def tryComplete(result: Try[T]): Boolean = core.tryComplete(CoreFuture.nonNull(result))

  /** Completes with `Success(value)` (see [[complete]]). */
  def success(value: T): Unit = complete(Success(value))

  /** Completes with `Failure(error)` (see [[complete]]). */
  def failure(error: Throwable): Unit = complete(Failure(error))

  /** Whether the future is completed (or cancelled). */
  def isCompleted: Boolean = core.isDone

/** Factory for [[Promise]]. */
object Promise:
  /** A new, pending promise. */
  def apply[T](): Promise[T] = new Promise[T]
