package weft

import scala.util.Try
import weft.internal.futures.RunnableFuture
import weft.internal.scopes.SupervisorGroup

/**
 * Runs `body` in a supervised scope: a nested scope (as [[Async.group]]) in which the failure of
 * any future started in it fails the whole scope.
 *
 * When a future started in the scope fails (with anything but a `CancellationException`), or
 * `body` itself throws, every other future of the scope and `body` are cancelled, the scope
 * waits until all of their threads have ended, and then throws that first failure, with the
 * failures that followed it attached as suppressed exceptions. So a failure can never go
 * unnoticed, even in a future nobody awaits. When `body` returns normally, the futures still
 * running are cancelled and joined (as at the end of any scope) and its value is returned,
 * unless a future failed before they were all joined.
 *
 * A failure that a future (or `body`) throws after its cancellation (it was between two
 * interruption points, or in `uninterruptible`, when the cancel came) is not lost: if the scope
 * is failing, it is attached to the thrown failure as suppressed; otherwise (a future cancelled
 * on purpose, a scope ending or cancelled from outside) it goes to [[UnobservedFailures]] and
 * does not change what the scope returns or throws.
 *
 * Supervised are the futures that join the scope's group: those started with `Future { ... }`
 * in `body` itself, and those started from anywhere with a [[Scope]] handle taken in `body`
 * (`Scope.current.fork`). A future started inside such a future belongs to that future's own
 * scope, where failures stay in their futures as usual; start it with `Scope.fork`, or open a
 * `supervised` there, to supervise it too. [[forkUnsupervised]] starts a future whose failure
 * stays in it. Cancelling a future on purpose (`f.cancel()`) does not fail the scope.
 *
 * `body` runs on a fiber of its own (the caller waits for it), so that the scope can interrupt
 * it like any other member.
 *
 * {{{
 * val total = supervised:
 *   val a = Future(fetch("a"))
 *   Future(audit())            // if audit throws, fetch is cancelled and supervised throws
 *   a.await
 * }}}
 *
 * @throws java.util.concurrent.CancellationException
 *   if the enclosing scope is cancelled meanwhile
 */
def supervised[T](body: Async ?=> T)(using outer: Async): T =
  val group = SupervisorGroup()
  group.link(outer.group)
  // The body is a member future (so a failure elsewhere interrupts it) whose context starts its
  // futures in `group` rather than in the body future's own child group; `withGroup` keeps the
  // body future as the runner, so `uninterruptible` and cancellation act on it.
  val inScope: Async ?=> T = (a: Async) ?=> body(using a.withGroup(group))
  var result: Try[T] | Null = null
  try
    val main = RunnableFuture.start(inScope, outer.withGroup(group))
    result = outer.await(main)
  finally group.shutdown()
  val failure = group.failureToThrow
  if failure != null then throw failure
  result.nn.get

/**
 * Starts `body` on a new virtual thread as a future whose failure stays in it, even in a
 * [[supervised]] scope: it is cancelled and joined with the scope, but its failure does not fail
 * the scope. Outside a supervised scope it is the same as `Future { body }`. Its failure is held
 * for whoever awaits the future and, if nobody has by the scope's end, reported then: for a
 * handler nobody awaits (a server's per-connection handler), use [[forkReported]], whose
 * failure is reported when it happens.
 *
 * {{{
 * supervised:
 *   val probe = forkUnsupervised(ping(host)) // may fail; the scope carries on
 *   probe.result.isSuccess
 * }}}
 */
def forkUnsupervised[T](body: Async ?=> T)(using async: Async): Future[T] =
  async.group match
    case s: SupervisorGroup => RunnableFuture.start(body, async.withGroup(s.unsupervised))
    case _                  => RunnableFuture.start(body, async)
