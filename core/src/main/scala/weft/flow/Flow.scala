package weft.flow

import weft.Async

/**
 * A cold, back-pressured stream of elements, run in direct style: a description of where the
 * elements come from and what happens to them, which does nothing until a terminal operation
 * (`runToList`, `runForeach`, `runFold`, `runDrain`, `runLast`, `runToChannel`, ...) runs it inside
 * an [[weft.Async]]. Each run starts from the beginning: a flow can be run many times.
 *
 * {{{
 * Async.blocking:
 *   val total = Flow.range(0, 1000)
 *     .map(_ * 2)
 *     .filter(_ % 3 == 0)
 *     .mapPar(8)(i => lookup(i)) // an asynchronous boundary: 8 lookups at once, order kept
 *     .runFold(0L)(_ + _)
 * }}}
 *
 * '''Fusion and boundaries.''' A flow is pushed: its source calls the next stage's [[FlowEmit]]
 * for each element, and each linear stage (`map`, `filter`, `take`, `scan`, `grouped`,
 * `throttle`, ...) is a function call inside the stage before it, on the same fiber, with no
 * channel and no buffer in between. A fiber and a channel appear only at an asynchronous
 * boundary, which each operator that creates one says in its Scaladoc: `buffer`, `mapPar`,
 * `mapParUnordered`, `flatMapMerge`, `merge`, `zip`, `interleave`, `groupBy`, `conflate`,
 * `debounce` and `groupedWithin`. There the stages upstream run on a new fiber and hand their
 * elements over through a bounded channel, so the two sides run concurrently. ADR 0030 gives
 * the reasons.
 *
 * '''Structure.''' Every fiber a run starts lives in a nested scope of the caller (a
 * [[weft.supervised]] scope per boundary) and has ended when the terminal operation returns or
 * throws. A failure anywhere, in a source, an operator's function or a stage downstream, ends
 * the run with that exception (not wrapped): the boundary's scope cancels the other stages and
 * joins them first. Cancelling the caller stops every stage.
 *
 * '''Back-pressure.''' A boundary holds at most its capacity (see each operator); an `emit`
 * waits while the boundary downstream is full. Nothing buffers without bound unless asked.
 *
 * Operator arguments are checked when the operator is called: a bad one throws an
 * `IllegalArgumentException` naming the operator and the parameter.
 */
final class Flow[+T] private[flow] (private[weft] val stage: (FlowEmit[T], Async) => Unit)
    extends FlowRunOps[T],
      FlowOps[T],
      FlowLifecycleOps[T],
      FlowParOps[T],
      FlowTimeOps[T]:

  override def toString: String = "Flow"

/** Creating flows: see [[FlowSources]] for every source. */
object Flow extends FlowSources:

  /**
   * The capacity, in elements, of a boundary that takes none as an argument (Kotlin's default
   * buffer too): enough for batches of 16 elements to cross at once (see `buffer`).
   */
  val DefaultBuffer: Int = 64

  /** A flow whose run is `stage`: the one constructor every operator goes through. */
  private[flow] def of[T](stage: (FlowEmit[T], Async) => Unit): Flow[T] = new Flow(stage)
