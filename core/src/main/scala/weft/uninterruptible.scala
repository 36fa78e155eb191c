package weft

/**
 * Runs `body` so that a cancellation of the enclosing future arriving meanwhile is deferred: it
 * neither interrupts `body` nor makes its awaits throw. When `body` ends, a deferred
 * cancellation is raised as a `CancellationException`. Outside a future it simply runs `body`.
 * If `body` itself throws while a cancellation is deferred, its own exception is thrown (never
 * replaced by the cancellation) and the cancellation is raised at the next interruption point.
 * Directly in a root scope's body (`Async.blocking`), what is deferred is an interrupt of the
 * calling thread, raised as an `InterruptedException`; a `body` that throws keeps its own
 * exception there too, and the thread's interrupt status is set again.
 *
 * It defers a cancellation that arrives while the future's body runs; it cannot undo one that
 * came first: a future cancelled before its fiber started never runs its body at all, even a
 * body that is all `uninterruptible`. The block applies to the future running on the calling
 * fiber, also when it is reached through another fiber's context (a by-name argument evaluated
 * inside a child future).
 */
def uninterruptible[T](body: => T)(using async: Async): T =
  val r = async.runnerOnCurrentFiber
  if r != null then r.uninterruptibly(body) else body
