package weft.flow

import scala.concurrent.duration.FiniteDuration
import weft.internal.flow.{Fanout, FlowChecks, Windows}

/**
 * The operators of a [[Flow]] that depend on time or on the speed of the consumer. Time is read
 * from the run's runtime support (its clock and timers), so under the test kit's virtual time
 * they run on virtual time, exactly.
 */
trait FlowTimeOps[+T]:
  this: Flow[T] =>

  /**
   * The same elements, never more than `elements` within any span of `per`: the first `elements`
   * pass at once, and each later one waits, if it must, until `per` has passed since the
   * element `elements` places before it was emitted (a sliding window: unlike fixed windows, it
   * never lets a burst through across a window's edge). Holds the times of the last `elements`
   * emissions.
   *
   * Fused: the wait is a [[weft.sleep]] on the fiber of the stage that feeds it.
   * @throws IllegalArgumentException
   *   if `elements` is less than 1 or `per` is not positive
   */
  def throttle(elements: Int, per: FiniteDuration): Flow[T] =
    FlowChecks.positive("throttle", "elements", elements)
    FlowChecks.duration("throttle", "per", per, strict = true)
    Flow.of((emit, a) => Windows.throttle(this, elements, per.toNanos, emit)(using a))

  /**
   * The elements in groups of at most `n`, each group emitted when it is full or when `within`
   * has passed since its first element arrived, whichever comes first (never an empty group).
   *
   * Asynchronous boundary: one fiber runs the upstream stages into a channel of
   * [[Flow.DefaultBuffer]] elements, so the window runs while upstream waits.
   * @throws IllegalArgumentException
   *   if `n` is less than 1 or `within` is not positive
   */
  def groupedWithin(n: Int, within: FiniteDuration): Flow[Seq[T]] =
    FlowChecks.positive("groupedWithin", "n", n)
    FlowChecks.duration("groupedWithin", "within", within, strict = true)
    Flow.of: (emit, a) =>
      Fanout.boundary(this, Flow.DefaultBuffer)(ch => Windows.groupedWithin(ch, n, within, emit))(
        using a
      )

  /**
   * The elements after which no newer one came within `quiet`: each element is held until
   * `quiet` has passed without a newer one, which replaces it. The last element is always
   * emitted, when the flow ends. Kotlin's `debounce`.
   *
   * Asynchronous boundary: one fiber runs the upstream stages into a channel of
   * [[Flow.DefaultBuffer]] elements.
   * @throws IllegalArgumentException
   *   if `quiet` is not positive
   */
  def debounce(quiet: FiniteDuration): Flow[T] =
    FlowChecks.duration("debounce", "quiet", quiet, strict = true)
    Flow.of: (emit, a) =>
      Fanout.boundary(this, Flow.DefaultBuffer)(ch => Windows.debounce(ch, quiet, emit))(using a)

  /**
   * The elements, merged with `f` while the stages downstream are busy: upstream never waits
   * for them, and what it emits meanwhile is combined into one element (`f(older, newer)`),
   * handed over as soon as downstream takes the next one. Keep-the-latest is
   * `conflate((_, newer) => newer)`.
   *
   * Asynchronous boundary: one fiber runs the upstream stages, one holds and merges the pending
   * element; both hand over through rendezvous channels.
   */
  def conflate[U >: T](f: (U, U) => U): Flow[U] =
    FlowChecks.notNull("conflate", "f", f)
    Flow.of((emit, a) => Windows.conflate[U](this, f, emit)(using a))
