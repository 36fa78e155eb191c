package weft

import weft.internal.futures.RunnableFuture
import weft.internal.scopes.SupervisorGroup

/**
 * Starts `body` on a new virtual thread, fire-and-forget: a member of the current scope
 * (cancelled and joined with it) whose failure is reported to [[UnobservedFailures]] when it
 * happens, and neither held to the scope's end nor failing the scope, even a [[supervised]] one.
 * Log and continue: the way to start one handler per connection or per message in a server, so
 * that a bug in one request is seen at once and neither hides until shutdown nor stops the
 * server.
 *
 * It returns a handle that has no result, only `cancel()` (and `link`/`unlink`): nobody can
 * observe the failure, so reporting it at once is never a false alarm. A cancellation, and an
 * interrupt it provoked, is not reported. To read a result, start a `Future` (or, in a
 * supervised scope, [[forkUnsupervised]], whose failure is held for whoever awaits it).
 *
 * {{{
 * Async.blocking:
 *   val scope = Scope.current
 *   Future:
 *     while true do
 *       val conn = accept()
 *       scope.forkReported(handle(conn)) // a failing request is reported, the server goes on
 * }}}
 */
def forkReported(body: Async ?=> Unit)(using async: Async): Cancellable =
  async.group match
    case s: SupervisorGroup => RunnableFuture.startReported(body, async.withGroup(s.unsupervised))
    case _                  => RunnableFuture.startReported(body, async)
