package weft.flow

/**
 * Where a stage of a [[Flow]] pushes its elements: the next stage downstream, fused into one call.
 *
 * `apply` returns once the element has been taken downstream: by the fused stages after this
 * one, and, at an asynchronous boundary, by the boundary's channel. It may therefore wait (that
 * wait is the back-pressure) and it may throw: a failure downstream, or the signal of a stage
 * like [[Flow.take]] that needs no more elements. A source written with [[Flow.usingEmit]] must
 * let such an exception through (no `catch` of everything around `emit`), and must call `emit`
 * only on the fiber that runs it, never from a future it started.
 *
 * {{{
 * val countdown = Flow.usingEmit[Int] { emit =>
 *   for i <- 3 to 1 by -1 do emit(i)
 * }
 * }}}
 */
trait FlowEmit[-T]:

  /** Pushes `t` downstream; returns once it was taken. */
  def apply(t: T): Unit
