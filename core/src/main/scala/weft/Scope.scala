package weft

import java.util.concurrent.CancellationException
import weft.internal.scopes.SupervisorGroup

/**
 * A handle on a scope (an [[Async.blocking]], [[Async.group]] or [[supervised]] block, or a
 * future's body), to start futures in that scope from anywhere inside it, also from a future
 * nested deeper.
 *
 * A future started with [[fork]] belongs to the scope of the handle, not to the future that
 * called `fork`: it outlives that caller, and is cancelled and joined when the scope ends. This
 * is the way for an accept loop to start connection handlers that outlive the loop's own future
 * but not the server's scope:
 *
 * {{{
 * supervised:
 *   val scope = Scope.current
 *   Future:
 *     while true do
 *       val conn = accept()
 *       scope.forkReported(handle(conn)) // a member of the scope, not of this loop
 * }}}
 *
 * In a supervised scope a forked future is supervised (its failure fails the scope) unless
 * started with [[forkUnsupervised]]. A handler whose failure should be logged while the server
 * goes on is started with [[forkReported]].
 */
final class Scope private (async: Async):

  /**
   * Starts `body` on a new virtual thread as a member of this scope (see [[Future.apply]]).
   * Once the scope has ended (or is being cancelled), it starts nothing and returns a future
   * already failed with a `CancellationException`.
   */
  def fork[T](body: Async ?=> T): Future[T] =
    if isCancelled then ended else Future(body)(using async)

  /**
   * As [[fork]], but the future's failure stays in it even in a supervised scope (see
   * [[weft.forkUnsupervised]]).
   */
  def forkUnsupervised[T](body: Async ?=> T): Future[T] =
    if isCancelled then ended else weft.forkUnsupervised(body)(using async)

  /**
   * As [[fork]], fire-and-forget: the future has no result to read, and its failure is reported
   * to [[UnobservedFailures]] when it happens, without failing the scope (see
   * [[weft.forkReported]]): the way to start a server's per-connection handlers. Once the scope
   * has ended (or is being cancelled), it starts nothing.
   */
  def forkReported(body: Async ?=> Unit): Cancellable =
    if isCancelled then ended[Unit] else weft.forkReported(body)(using async)

  /** Whether the scope has ended or is being cancelled: [[fork]] then starts nothing. */
  def isCancelled: Boolean = async.group.isCancelled

  /** Whether the failure of a future forked here fails the scope (a [[supervised]] scope). */
  def isSupervised: Boolean = async.group.isInstanceOf[SupervisorGroup]

  private def ended[T]: Future[T] =
    Future.failed(CancellationException("the scope of this fork has ended"))

/** Taking a [[Scope]] handle. */
object Scope:

  /**
   * The scope that futures started here join: the enclosing `Async.blocking`, `Async.group` or
   * `supervised` block, or the body of the enclosing future.
   */
  def current(using async: Async): Scope = new Scope(async)
