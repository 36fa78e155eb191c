package weft.flow

import scala.collection.mutable.ListBuffer
import weft.{Async, Future}
import weft.channels.ReadableChannel
import weft.internal.flow.{Fanout, FlowChecks}

/**
 * The terminal operations of a [[Flow]]: each runs the flow on the calling fiber, inside the
 * caller's [[weft.Async]], and returns once the run has ended and every fiber it started has
 * ended too. A failure of the run is thrown as it was thrown; a cancellation of the caller
 * throws the `CancellationException`.
 */
trait FlowRunOps[+T]:
  this: Flow[T] =>

  /**
   * Runs the stages in a nested scope of the caller, so that a future a stage starts (in a
   * `usingEmit` body, say) has ended when the terminal operation returns (`FlowRunOpsSuite`).
   */
  private def run(emit: FlowEmit[T])(using a: Async): Unit =
    Async.group(stage(emit, summon[Async]))

  /** Runs the flow, pushing every element into `emit` on the calling fiber. */
  def runToEmit(emit: FlowEmit[T])(using a: Async): Unit =
    FlowChecks.notNull("runToEmit", "emit", emit)
    run(emit)

  /** Runs the flow, calling `f` for each element in turn. */
  def runForeach(f: T => Unit)(using a: Async): Unit =
    FlowChecks.notNull("runForeach", "f", f)
    run(t => f(t))

  /** Runs the flow and ignores its elements: for the effects of its stages. */
  def runDrain()(using a: Async): Unit = run(_ => ())

  /** Runs the flow and returns its elements, in order. Holds them all: for flows known to end small. */
  def runToList()(using a: Async): List[T] =
    val out = ListBuffer.empty[T]
    run(t => out += t)
    out.toList

  /** Runs the flow, folding its elements into `zero` with `f`. */
  def runFold[S](zero: S)(f: (S, T) => S)(using a: Async): S =
    FlowChecks.notNull("runFold", "f", f)
    var acc = zero
    run(t => acc = f(acc, t))
    acc

  /** Runs the flow and returns its last element, if any. */
  def runLastOption()(using a: Async): Option[T] =
    var last: Option[T] = None
    run(t => last = Some(t))
    last

  /**
   * Runs the flow and returns its last element.
   * @throws java.util.NoSuchElementException
   *   if the flow ended without an element
   */
  def runLast()(using Async): T =
    runLastOption().getOrElse(
      throw java.util.NoSuchElementException("runLast: the flow had no element")
    )

  /**
   * Starts the flow on a new fiber in the caller's scope and returns a channel of `capacity`
   * (0: a rendezvous) that it fills: closed when the flow ends, closed with `error(cause)` when it
   * fails (a reader then gets a `ChannelFailedException` whose cause is the failure). The fiber
   * is a future of the caller's scope: cancelled and joined when that scope ends, so read the
   * channel inside it. This is the one terminal operation that returns before the run ends.
   * @throws IllegalArgumentException
   *   if `capacity` is negative
   */
  def runToChannel[U >: T](capacity: Int = Flow.DefaultBuffer)(using a: Async): ReadableChannel[U] =
    FlowChecks.nonNegative("runToChannel", "capacity", capacity)
    val ch = Fanout.channel[U](capacity)
    Future:
      try
        Fanout.feed[U](this, ch)
        ch.close()
      catch case e: Throwable => ch.error(e)
    ch
