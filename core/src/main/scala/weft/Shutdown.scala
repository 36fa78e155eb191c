package weft

import scala.util.Success

/**
 * A request to stop: the first phase of a shutdown in phases. The work it concerns observes it,
 * stops taking new work (an accept loop stops accepting, an idle connection is closed) and
 * finishes what it has in hand; a deadline then cancels what has not finished (see
 * [[WeftApp.drainGrace]]). Requesting cancels nothing by itself: what to stop and how is the
 * observer's choice, as with Go's `http.Server.Shutdown`.
 *
 * {{{
 * Async.select(
 *   shutdown.requested ~~> (_ => stop()),   // a source: select on it, or await it
 *   requests.canRead ~~> (r => serve(r))
 * )
 * if shutdown.isRequested then ...         // or poll the flag between two requests
 * }}}
 *
 * A [[WeftApp]] has one (`shutdown`), requested by SIGTERM, SIGINT or `System.exit`; any other
 * code may make its own and call [[request]].
 */
final class Shutdown:
  private val promise = Promise[Unit]()
  // Whether anyone has looked at the request: a `WeftApp` whose `run` never did has nothing
  // that would drain, so it skips the drain phase and cancels at once, as it did before phases.
  @volatile private var observed = false

  /** A future completed (with `()`) when the shutdown is requested: a source to select on. */
  def requested: Future[Unit] =
    observe()
    promise.future

  /** Whether the shutdown has been requested: the flag to poll between two pieces of work. */
  def isRequested: Boolean =
    observe()
    promise.isCompleted

  /**
   * Requests the shutdown: completes [[requested]], whose waiters run (a listener, such as a
   * `select` case, runs on the calling thread). Idempotent.
   * @return
   *   whether this call made the request (`false` if it had been made already)
   */
  def request(): Boolean = promise.tryComplete(Success(()))

  // a flag polled by every request must not write a shared field every time
  private def observe(): Unit = if !observed then observed = true

  /** Whether [[requested]] or [[isRequested]] has been called (by the app, not by weft). */
  private[weft] def isObserved: Boolean = observed
