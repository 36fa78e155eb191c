package weft

import weft.internal.async.AsyncContext

/**
 * Runs `body` as a region that is not cancelled: work that must finish, finishes. A
 * cancellation of the enclosing future (or, at a root scope, an interrupt of its thread) that
 * arrives meanwhile is deferred until the region ends. What the region covers:
 *   - `body` itself: the cancellation neither interrupts it nor makes its waits throw;
 *   - the futures `body` starts (with the context it is given): they are in the region's own
 *     group, which the enclosing cancellation does not reach while the region is open, so they
 *     run to their end and `body` can await them;
 *   - a [[withTimeout]] inside: it is not cut short by the enclosing cancellation, and still
 *     ends on its own timer.
 *
 * In a [[supervised]] scope, the futures started in the region are watched as the scope's are:
 * one that fails fails the scope at once (the region itself still runs to its end).
 *
 * When `body` ends, a deferred cancellation is raised as a `CancellationException`. Futures it
 * started that are still running then are moved to the enclosing scope: they are its own from
 * then on, joined when it ends, and cancelled at once if it is being cancelled (the region
 * promised them nothing beyond its end). If `body` itself throws while a cancellation is
 * deferred, its own exception is thrown (never replaced by the cancellation) and the
 * cancellation is raised at the next interruption point. Directly in a root scope's body
 * (`Async.blocking`), what is deferred is an interrupt of the calling thread, raised as an
 * `InterruptedException`; a `body` that throws keeps its own exception there too, and the
 * thread's interrupt status is set again. Outside a future it simply runs `body`.
 *
 * It defers a cancellation that arrives while the future's body runs; it cannot undo one that
 * came first: a future cancelled before its fiber started never runs its body at all, even a
 * body that is all `uninterruptible`. The region applies to the future running on the calling
 * fiber, also when it is reached through another fiber's context (a by-name argument evaluated
 * inside a child future). A JDK blocking call inside the region is not interrupted by the
 * deferred cancellation, but one at a root scope still sees a foreign interrupt of its thread.
 */
def uninterruptible[T](body: Async ?=> T)(using async: Async): T =
  val r = async.runnerOnCurrentFiber
  if r == null then body
  else
    // The region's group: linked to nothing while the region is open, so the enclosing
    // cancellation does not reach it (`UninterruptibleRegionSuite`); in a supervised scope, its
    // futures are still watched by the supervisor.
    val region = async.group.regionGroup()
    try r.uninterruptibly(body(using AsyncContext(region, r, async.support)))
    finally handOver(region, async.group)

/**
 * The end of a region: the futures still running in it are moved to the enclosing scope's
 * group `to` (cancelled there if it is cancelled), then the region's group is ended like any
 * scope's, so a future started through an escaped context afterwards is cancelled at once.
 */
private def handOver(region: CompletionGroup, to: CompletionGroup): Unit =
  if region.size != 0 then
    val live = region.memberSnapshot
    var i = 0
    while i < live.length do
      live(i).link(to): Unit
      i += 1
  region.cancel()
  region.waitCompletion()
