package weft
package internal.flow

import weft.flow.{Flow, FlowEmit}

/** The boundaries that combine two flows element by element: `zip` and `interleave`. */
private[weft] object Pairing:

  /**
   * `zip`: `right` feeds a channel from a fiber of its own; `left` runs as the boundary's body
   * and pairs each of its elements with the next one read. The first side to end ends the run:
   * `left` by returning, `right` by closing its channel, which the body turns into a
   * [[FlowStop]] of its own to unwind `left`.
   */
  def zip[T, U](left: Flow[T], right: Flow[U], emit: FlowEmit[(T, U)])(using Async): Unit =
    val stop = FlowStop()
    try
      Fanout.boundary(right, Flow.DefaultBuffer): r =>
        left.stage(
          { t =>
            val u = r.next()
            if u.asInstanceOf[AnyRef] eq Batching.Closed then throw stop
            emit((t, u.asInstanceOf[U]))
          },
          summon[Async]
        )
    catch case s: FlowStop if s eq stop => ()

  /**
   * `interleave`: both sides feed boundaries (nested) from fibers of their own; the body takes up to
   * `segment` elements from one, then from the other. When a side ends, the body drains the
   * other (or, with `eager`, stops there).
   */
  def interleave[T](
      left: Flow[T],
      right: Flow[T],
      segment: Int,
      eager: Boolean,
      emit: FlowEmit[T]
  )(using Async): Unit =
    Fanout.boundary(left, Flow.DefaultBuffer): first =>
      Fanout.boundary(right, Flow.DefaultBuffer): second =>
        var current = first
        var other = second
        var running = true
        while running do
          var taken = 0
          while taken < segment && running do
            val v = current.next()
            if v.asInstanceOf[AnyRef] ne Batching.Closed then
              emit(v.asInstanceOf[T])
              taken += 1
            else
              running = false
              if !eager then Fanout.drain(other, emit)
          val swap = current
          current = other
          other = swap
