package weft.flow

import weft.internal.async.Cancellation
import weft.internal.flow.{FlowChecks, FlowStop}

/**
 * The linear operators of a [[Flow]]: each is fused into the stage that feeds it (a function
 * call on the same fiber, no channel, no fiber), so a chain of them costs about what the same
 * loop written by hand costs (`flow-map-filter-1m` in the shootout measures it).
 */
trait FlowOps[+T]:
  this: Flow[T] =>

  /** Each element mapped by `f`. */
  def map[U](f: T => U): Flow[U] =
    FlowChecks.notNull("map", "f", f)
    Flow.of((emit, a) => stage(t => emit(f(t)), a))

  /** The elements that satisfy `p`. */
  def filter(p: T => Boolean): Flow[T] =
    FlowChecks.notNull("filter", "p", p)
    Flow.of((emit, a) => stage(t => if p(t) then emit(t), a))

  /** The elements on which `pf` is defined, mapped by it. */
  def collect[U](pf: PartialFunction[T, U]): Flow[U] =
    FlowChecks.notNull("collect", "pf", pf)
    Flow.of: (emit, a) =>
      val none = FlowOps.NoValue
      stage(
        t =>
          val u = pf.applyOrElse(t, _ => none)
          if u.asInstanceOf[AnyRef] ne none then emit(u.asInstanceOf[U])
        ,
        a
      )

  /** The elements unchanged, after `f` has seen each (for logging, metrics). */
  def tap(f: T => Unit): Flow[T] =
    FlowChecks.notNull("tap", "f", f)
    Flow.of((emit, a) =>
      stage(
        t =>
          f(t); emit(t)
        ,
        a
      )
    )

  /** Each element paired with its index, from 0. */
  def zipWithIndex: Flow[(T, Long)] = Flow.of: (emit, a) =>
    var i = 0L
    stage(
      t =>
        emit((t, i)); i += 1
      ,
      a
    )

  /** The elements of the collection `f` makes of each element, in order. */
  def mapConcat[U](f: T => IterableOnce[U]): Flow[U] =
    FlowChecks.notNull("mapConcat", "f", f)
    Flow.of: (emit, a) =>
      stage(
        { t =>
          val it = f(t).iterator
          var n = 0
          while it.hasNext do
            emit(it.next())
            n += 1
            // an endless collection must not make the run uncancellable (`FlowLinearCancelSuite`)
            if (n & 255) == 0 then Cancellation.check("Flow.mapConcat")(using a)
        },
        a
      )

  /**
   * The elements of the flow `f` makes of each element, each sub-flow run to its end before the
   * next element is taken: Kotlin's `flatMapConcat`. The sub-flows run on the same fiber; for
   * sub-flows run at once see [[FlowParOps.flatMapMerge]].
   */
  def flatMap[U](f: T => Flow[U]): Flow[U] =
    FlowChecks.notNull("flatMap", "f", f)
    Flow.of((emit, a) => stage(t => f(t).stage(emit, a), a))

  /** The same as [[flatMap]], under Kotlin's name. */
  def flatMapConcat[U](f: T => Flow[U]): Flow[U] = flatMap(f)

  /** `zero`, then each running result of `f`: `Flow(1, 2, 3).scan(0)(_ + _)` is 0, 1, 3, 6. */
  def scan[S](zero: S)(f: (S, T) => S): Flow[S] =
    FlowChecks.notNull("scan", "f", f)
    Flow.of: (emit, a) =>
      var acc = zero
      emit(acc)
      stage(
        t =>
          acc = f(acc, t); emit(acc)
        ,
        a
      )

  /** The first `n` elements; once the `n`th is emitted, upstream is stopped. */
  def take(n: Long): Flow[T] =
    FlowChecks.nonNegative("take", "n", n)
    if n == 0 then Flow.empty
    else
      Flow.of: (emit, a) =>
        val stop = FlowStop()
        var left = n
        try
          stage(
            { t =>
              emit(t)
              left -= 1
              if left == 0 then throw stop
            },
            a
          )
        catch case s: FlowStop if s eq stop => ()

  /**
   * The elements while `p` holds; upstream is stopped at the first that fails it, which is
   * emitted too if `includeFirstFailing`.
   */
  def takeWhile(p: T => Boolean, includeFirstFailing: Boolean = false): Flow[T] =
    FlowChecks.notNull("takeWhile", "p", p)
    Flow.of: (emit, a) =>
      val stop = FlowStop()
      try
        stage(
          { t =>
            if p(t) then emit(t)
            else
              if includeFirstFailing then emit(t)
              throw stop
          },
          a
        )
      catch case s: FlowStop if s eq stop => ()

  /** All elements but the first `n`. */
  def drop(n: Long): Flow[T] =
    FlowChecks.nonNegative("drop", "n", n)
    Flow.of: (emit, a) =>
      var skip = n
      stage(t => if skip > 0 then skip -= 1 else emit(t), a)

  /** The elements from the first that fails `p` on. */
  def dropWhile(p: T => Boolean): Flow[T] =
    FlowChecks.notNull("dropWhile", "p", p)
    Flow.of: (emit, a) =>
      var dropping = true
      stage(
        { t =>
          if dropping && !p(t) then dropping = false
          if !dropping then emit(t)
        },
        a
      )

  /** The elements in groups of `n` (the last group may be smaller, never empty). */
  def grouped(n: Int): Flow[Seq[T]] =
    FlowChecks.positive("grouped", "n", n)
    Flow.of: (emit, a) =>
      var group = Vector.newBuilder[T]
      var size = 0
      stage(
        { t =>
          group += t
          size += 1
          if size == n then
            val full = group.result()
            group = Vector.newBuilder[T]
            size = 0
            emit(full)
        },
        a
      )
      if size > 0 then emit(group.result())

  /** `separator` between each two elements. */
  def intersperse[U >: T](separator: U): Flow[U] = Flow.of: (emit, a) =>
    var first = true
    stage(
      { t =>
        if first then first = false else emit(separator)
        emit(t)
      },
      a
    )

  /** The elements of this flow, then those of `other` (run after this one ended). */
  def concat[U >: T](other: Flow[U]): Flow[U] =
    FlowChecks.notNull("concat", "other", other)
    Flow.concat(this, other)

/** Shared values of the linear operators. */
private[flow] object FlowOps:

  /** What `collect` gets from a partial function that is not defined at an element. */
  object NoValue
