package weft.flow

import scala.concurrent.duration.FiniteDuration
import weft.{Async, Future, Source, Ticker}
import weft.channels.ReadableChannel
import weft.internal.async.Cancellation
import weft.internal.flow.{FlowChecks, Fanout}

/**
 * The sources of [[Flow]]s: `Flow.range(0, 10)`, `Flow.fromIterable(xs)`, `Flow.usingEmit { ... }`.
 *
 * A source that never waits (values, iterables, ranges, `unfold`, `iterate`, `repeat`) checks
 * between elements, every few hundred of them, whether its scope was cancelled, so that even a
 * fully fused flow that never waits can be cancelled midway.
 */
trait FlowSources:

  /** A flow of no elements. */
  def empty[T]: Flow[T] = Flow.of((_, _) => ())

  /** A flow of `values`, in order: `Flow(1, 2, 3)`. */
  def apply[T](values: T*): Flow[T] = fromIterable(values)

  /** A flow of `values`, in order. */
  def fromValues[T](values: T*): Flow[T] = fromIterable(values)

  /** A flow of the elements of `it`, in its iteration order; each run iterates anew. */
  def fromIterable[T](it: Iterable[T]): Flow[T] =
    FlowChecks.notNull("fromIterable", "it", it)
    fromIterator(it.iterator)

  /**
   * A flow of the elements of the iterator that `it` creates: each run evaluates `it` again, so
   * pass an expression that makes a fresh iterator (`fromIterator(file.lines())`), not one
   * iterator shared by every run.
   */
  def fromIterator[T](it: => Iterator[T]): Flow[T] = Flow.of: (emit, a) =>
    val i = it
    var n = 0
    while i.hasNext do
      emit(i.next())
      n += 1
      if (n & 255) == 0 then Cancellation.check("Flow.fromIterator")(using a)

  /**
   * The integers from `start` (inclusive) to `end` (exclusive) by `step`, like `start until end
   * by step`: `Flow.range(0, 10, 3)` is 0, 3, 6, 9; with a negative step the range counts down.
   * @throws IllegalArgumentException
   *   if `step` is 0
   */
  def range(start: Int, end: Int, step: Int = 1): Flow[Int] =
    if step == 0 then throw IllegalArgumentException("range: step must not be 0")
    Flow.of: (emit, a) =>
      // a long counter: `end` near Int.MaxValue must not wrap `i + step` around
      var i = start.toLong
      var n = 0
      while if step > 0 then i < end else i > end do
        emit(i.toInt)
        i += step
        n += 1
        if (n & 255) == 0 then Cancellation.check("Flow.range")(using a)

  /**
   * The elements read from `ch` until it is closed. A channel closed with `error(cause)` fails
   * the flow with `cause`. Each element goes to exactly one reader: two runs (or a run and
   * another reader) share the channel's elements.
   */
  def fromChannel[T](ch: ReadableChannel[T]): Flow[T] =
    FlowChecks.notNull("fromChannel", "ch", ch)
    Flow.of((emit, a) => Fanout.drain(ch, emit)(using a))

  /**
   * The values of `src`, awaited again and again for ever: a flow of every value the source
   * offers, which ends only when a stage downstream stops it (`take`) or the scope is cancelled.
   * For a channel's elements use [[fromChannel]], which ends when the channel is closed.
   */
  def fromSource[T](src: Source[T]): Flow[T] =
    FlowChecks.notNull("fromSource", "src", src)
    Flow.of: (emit, a) =>
      while true do emit(a.await(src))

  /** A flow of the one value of `f`, once it completes; its failure fails the flow. */
  def fromFuture[T](f: Future[T]): Flow[T] =
    FlowChecks.notNull("fromFuture", "f", f)
    Flow.of((emit, a) => emit(a.await(f).get))

  /** A flow that fails with `error` when run. */
  def failed[T](error: Throwable): Flow[T] =
    FlowChecks.notNull("failed", "error", error)
    Flow.of((_, _) => throw error)

  /**
   * `value` once per `period`, for ever, on a [[weft.Ticker]] of the run's scope (so on virtual
   * time under the test kit): the first after one period. A consumer slower than the ticker
   * sees the ticks it overran skipped, not queued. The ticker is stopped when the run ends.
   * @throws IllegalArgumentException
   *   if `period` is not positive
   */
  def tick[T](period: FiniteDuration, value: T = ()): Flow[T] =
    FlowChecks.duration("tick", "period", period, strict = true)
    Flow.of: (emit, a) =>
      val ticker = Ticker(period)(using a)
      try while a.await(ticker) do emit(value)
      finally ticker.cancel()

  /**
   * The elements `f` unfolds from `zero`: while `f(s)` is `Some((t, next))`, emits `t` and goes on
   * from `next`; ends at the first `None`.
   */
  def unfold[S, T](zero: S)(f: S => Option[(T, S)]): Flow[T] =
    FlowChecks.notNull("unfold", "f", f)
    Flow.of: (emit, a) =>
      var s = zero
      var n = 0
      var next = f(s)
      while next.isDefined do
        val (t, s2) = next.get
        emit(t)
        s = s2
        n += 1
        if (n & 255) == 0 then Cancellation.check("Flow.unfold")(using a)
        next = f(s)

  /** `zero`, `f(zero)`, `f(f(zero))`, ... for ever (stop it downstream, e.g. with `take`). */
  def iterate[T](zero: T)(f: T => T): Flow[T] =
    FlowChecks.notNull("iterate", "f", f)
    Flow.of: (emit, a) =>
      var t = zero
      var n = 0
      while true do
        emit(t)
        t = f(t)
        n += 1
        if (n & 255) == 0 then Cancellation.check("Flow.iterate")(using a)

  /** `value` for ever (stop it downstream, e.g. with `take`). */
  def repeat[T](value: T): Flow[T] = iterate(value)(identity)

  /**
   * A flow whose elements `body` emits, on the fiber of the run: Kotlin's `flow { emit(x) }`.
   * `body` may wait (`sleep`, reads, awaits) and start futures in the scope it gets; it must call
   * `emit` on its own fiber only, and let what `emit` throws through (see [[FlowEmit]]).
   * {{{
   * val pages = Flow.usingEmit[Page] { emit =>
   *   var next: Option[String] = Some(firstUrl)
   *   while next.isDefined do
   *     val page = fetch(next.get)
   *     emit(page)
   *     next = page.nextUrl
   * }
   * }}}
   */
  def usingEmit[T](body: FlowEmit[T] => Async ?=> Unit): Flow[T] =
    FlowChecks.notNull("usingEmit", "body", body)
    Flow.of((emit, a) => body(emit)(using a))

  /** The elements of `flows`, one flow after the other. */
  def concat[T](flows: Flow[T]*): Flow[T] =
    FlowChecks.noNull("concat", "flows", flows)
    Flow.of: (emit, a) =>
      for f <- flows do f.stage(emit, a)

  /**
   * The elements of `flows`, interleaved as they come: each flow runs on its own fiber and
   * they all feed one channel of [[Flow.DefaultBuffer]] elements, read downstream in arrival
   * order (each flow's own order is kept). Ends when every flow has ended; the first failure
   * ends it at once and cancels the others.
   *
   * Asynchronous boundary: one fiber per flow.
   */
  def merge[T](flows: Flow[T]*): Flow[T] =
    FlowChecks.noNull("merge", "flows", flows)
    if flows.isEmpty then empty
    else Flow.of((emit, a) => Fanout.merge(flows, Flow.DefaultBuffer, emit)(using a))
