package weft.flow

import weft.Async
import weft.internal.flow.{Fanout, FlowChecks, GroupBy, Pairing}

/**
 * The operators of a [[Flow]] that run stages concurrently. Each is an asynchronous boundary:
 * the stages upstream run on fibers of their own and hand their elements over through a bounded
 * channel to the stages downstream, which run on the fiber of the stage after the boundary.
 * Every such fiber lives in a supervised scope of the run (see [[Flow]]).
 */
trait FlowParOps[+T]:
  this: Flow[T] =>

  /**
   * The same elements, with the stages upstream decoupled from those downstream by a channel of
   * `capacity` elements (0: a rendezvous): upstream runs ahead by up to `capacity` elements.
   *
   * Asynchronous boundary: one fiber runs the upstream stages.
   * @throws IllegalArgumentException
   *   if `capacity` is negative
   */
  def buffer(capacity: Int): Flow[T] =
    FlowChecks.nonNegative("buffer", "capacity", capacity)
    Flow.of((emit, a) => Fanout.boundary(this, capacity)(ch => Fanout.drain(ch, emit))(using a))

  /**
   * Each element mapped by `f`, at most `parallelism` at once, each in a future of its own; the
   * results are emitted in the order of their elements. At most `parallelism` results wait for an
   * earlier, slower one. The first failure of `f` fails the run at once and cancels the others.
   *
   * Asynchronous boundary: one fiber runs the upstream stages, one per element runs `f`.
   * @throws IllegalArgumentException
   *   if `parallelism` is less than 1
   */
  def mapPar[U](parallelism: Int)(f: T => Async ?=> U): Flow[U] =
    FlowChecks.positive("mapPar", "parallelism", parallelism)
    FlowChecks.notNull("mapPar", "f", f)
    Flow.of((emit, a) => Fanout.mapPar(this, parallelism, f, emit)(using a))

  /**
   * Each element mapped by `f`, at most `parallelism` at once, the results emitted as they are
   * ready (not in the order of their elements). The first failure of `f` fails the run at once.
   *
   * Asynchronous boundary: one fiber runs the upstream stages, one per element runs `f`; the
   * results pass through a channel of `parallelism` elements.
   * @throws IllegalArgumentException
   *   if `parallelism` is less than 1
   */
  def mapParUnordered[U](parallelism: Int)(f: T => Async ?=> U): Flow[U] =
    FlowChecks.positive("mapParUnordered", "parallelism", parallelism)
    FlowChecks.notNull("mapParUnordered", "f", f)
    Flow.of: (emit, a) =>
      Fanout.unordered[T, U](
        this,
        parallelism,
        parallelism,
        (t, out) => out(f(t)),
        emit
      )(using a)

  /**
   * The elements of the flows `f` makes of each element, up to `parallelism` sub-flows running at
   * once, their elements interleaved as they come (each sub-flow's own order kept): Kotlin's
   * `flatMapMerge`.
   *
   * Asynchronous boundary: one fiber runs the upstream stages, one per element runs its
   * sub-flow; they all feed one channel of [[Flow.DefaultBuffer]] elements.
   * @throws IllegalArgumentException
   *   if `parallelism` is less than 1
   */
  def flatMapMerge[U](parallelism: Int)(f: T => Flow[U]): Flow[U] =
    FlowChecks.positive("flatMapMerge", "parallelism", parallelism)
    FlowChecks.notNull("flatMapMerge", "f", f)
    Flow.of: (emit, a) =>
      Fanout.unordered[T, U](
        this,
        parallelism,
        Flow.DefaultBuffer,
        (t, out) => f(t).stage(out, summon[Async]),
        emit
      )(using a)

  /**
   * The elements of this flow and of `other`, interleaved as they come (see [[Flow.merge]]).
   *
   * Asynchronous boundary: one fiber per side.
   */
  def merge[U >: T](other: Flow[U]): Flow[U] =
    FlowChecks.notNull("merge", "other", other)
    Flow.merge(this, other)

  /**
   * Pairs of the elements of this flow and of `other`, in order; ends when either ends (the
   * other is then cancelled).
   *
   * Asynchronous boundary: `other` runs on a fiber of its own, up to [[Flow.DefaultBuffer]]
   * elements ahead; this flow runs on the fiber downstream.
   */
  def zip[U](other: Flow[U]): Flow[(T, U)] =
    FlowChecks.notNull("zip", "other", other)
    Flow.of((emit, a) => Pairing.zip(this, other, emit)(using a))

  /**
   * The elements of this flow and of `other`, taken in turns of `segmentSize` elements, this
   * flow first. When one side ends, the run goes on with the rest of the other, or, with
   * `eagerComplete`, ends there.
   *
   * Asynchronous boundary: one fiber per side.
   * @throws IllegalArgumentException
   *   if `segmentSize` is less than 1
   */
  def interleave[U >: T](
      other: Flow[U],
      segmentSize: Int = 1,
      eagerComplete: Boolean = false
  ): Flow[U] =
    FlowChecks.notNull("interleave", "other", other)
    FlowChecks.positive("interleave", "segmentSize", segmentSize)
    Flow.of((emit, a) => Pairing.interleave(this, other, segmentSize, eagerComplete, emit)(using a))

  /**
   * Splits the elements by `key` into sub-flows, one per key, each transformed by `child` and
   * run on a fiber of its own; the outputs of the children are merged, as they come. At most
   * `parallelism` keys are open at once: an element of a new key when `parallelism` are open
   * first completes the sub-flow of the key that least recently got an element (its child ends
   * once it has handled what it was given); a later element of that key opens a new sub-flow. A
   * child that ends early (its sub-flow has a `take`) drops the rest of its key's elements for as
   * long as the key stays open.
   *
   * Asynchronous boundary: one fiber runs the upstream stages, one per open key runs its child;
   * each key's elements wait in a channel of [[Flow.DefaultBuffer]], the merged output in
   * another.
   * @throws IllegalArgumentException
   *   if `parallelism` is less than 1
   */
  def groupBy[K, U](parallelism: Int, key: T => K)(child: (K, Flow[T]) => Flow[U]): Flow[U] =
    FlowChecks.positive("groupBy", "parallelism", parallelism)
    FlowChecks.notNull("groupBy", "key", key)
    FlowChecks.notNull("groupBy", "child", child)
    Flow.of((emit, a) => GroupBy.run(this, parallelism, key, child, emit)(using a))
