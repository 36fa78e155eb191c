package weft.channels

import java.util.concurrent.atomic.AtomicReference
import scala.util.{Failure, Success, Try}
import weft.{Async, Promise}

/**
 * Copies every value read from its publishers to every subscriber: a broadcast, where a plain
 * channel gives each value to one reader only.
 *
 * {{{
 * Async.blocking:
 *   val mux = ChannelMultiplexer[String]()
 *   val news = UnboundedChannel[String]()
 *   val alice = UnboundedChannel[Try[String]]()
 *   mux.addPublisher(news)
 *   mux.addSubscriber(alice)
 *   Future(mux.run()) // copies until mux.close() or the scope's end
 *   news.send("hello")
 *   alice.read().flatten // Success("hello")
 * }}}
 *
 * For an unchanging set of publishers and subscribers, with the multiplexer the only reader of
 * the publishers, every subscriber receives exactly the values sent by the publishers, all in
 * the same order; values of one publisher keep their order. The copying runs in [[run]], which
 * the owner calls inside a scope (typically `Future(mux.run())`). A slow subscriber slows every
 * subscriber: `run` hands each value to each subscriber in turn, waiting for room, so give
 * subscribers a buffer.
 *
 * ==Why subscribers are channels of `Try[T]`==
 * [[close]] must tell each subscriber that no more values will come without closing its
 * channel, which the user owns (it may have other senders, or outlive the multiplexer): so it
 * sends a `Failure(ChannelClosedException)` in it. A subscriber's `read()` is therefore a
 * `Try[Try[T]]`: the outer `Try` says whether the subscriber channel itself is closed, the
 * inner one whether the multiplexer is. `read().flatten` merges the two into the `Try[T]` of
 * any channel, `Failure(ChannelClosedException)` meaning "no more values" in both cases, so the
 * reading loop of a plain channel works unchanged:
 * {{{
 * Iterator.continually(alice.read().flatten).takeWhile(_.isSuccess).map(_.get)
 * }}}
 *
 * ==Closing==
 * [[close]] ends [[run]] at once, even while it waits to deliver a value to a slow subscriber
 * (that subscriber then does not get the value), and makes every subscriber that can take it
 * without waiting (room in its buffer, or a reader waiting) receive
 * `Failure(ChannelClosedException)`; it closes neither publishers nor subscribers. A publisher
 * that is closed is removed: a plain close is not forwarded (the other publishers go on), a
 * close with an error ([[Channel.error]]) is, as `Failure(ChannelFailedException)` to every
 * subscriber, so the error is not lost; a subscriber that is closed is removed. Cancelling the
 * future that runs [[run]] (for example at the end of its scope) ends it too, without the
 * closing notices.
 */
trait ChannelMultiplexer[T] extends java.io.Closeable:

  /**
   * Reads publishers and copies to subscribers until [[close]] (or until its future is
   * cancelled); suspends while idle. Call it once, in its own future.
   */
  def run()(using Async): Unit

  /** Starts reading `c` (takes effect at the next value). */
  def addPublisher(c: ReadableChannel[T]): Unit

  /** Stops reading `c`. */
  def removePublisher(c: ReadableChannel[T]): Unit

  /**
   * Starts copying values to `c` (from the next value read). `c` receives `Success(value)` for
   * each value and, at [[close]], `Failure(ChannelClosedException)`: read it with
   * `c.read().flatten` (see the trait comment).
   */
  def addSubscriber(c: SendableChannel[Try[T]]): Unit

  /** Stops copying values to `c`. */
  def removeSubscriber(c: SendableChannel[Try[T]]): Unit

  /**
   * Ends [[run]], at once, and sends `Failure(ChannelClosedException)` to every subscriber that
   * can take it without waiting (see the trait comment).
   */
  def close(): Unit

/** Creating [[ChannelMultiplexer]]s. */
object ChannelMultiplexer:
  /** A new multiplexer with no publishers and no subscribers. */
  def apply[T](): ChannelMultiplexer[T] = MultiplexerImpl[T]()

/**
 * The multiplexer: `run` races the `canRead` sources of the current publishers against a
 * "membership changed" promise, and sends each value read to each subscriber in turn. Every
 * change (add, remove, close) completes the current promise and installs a fresh one, so a
 * running race is restarted with the new membership; a losing channel read consumes nothing.
 * Each send races the subscriber's send source against the `closing` promise, so that a
 * subscriber that never reads cannot hold `run` past [[close]]; a losing send sends nothing.
 * The closing notices are sent with `trySend`, for the same reason (re-checked by
 * `ChannelMultiplexerSuite`, "close ends run while it is delivering").
 */
private final class MultiplexerImpl[T] extends ChannelMultiplexer[T]:
  private val publishers = AtomicReference(Vector.empty[ReadableChannel[T]])
  private val subscribers = AtomicReference(Vector.empty[SendableChannel[Try[T]]])
  private val changed = AtomicReference(Promise[Unit]())
  private val closing = Promise[Unit]()
  @volatile private var closed = false

  private def signal(): Unit = changed.getAndSet(Promise[Unit]()).tryComplete(Success(()))

  def run()(using Async): Unit =
    while !closed do
      val change = changed.get()
      val pubs = publishers.get()
      val cases = pubs.map(c => c.canRead.map(r => Some((c, r)))) :+ change.future.map(_ => None)
      Async.await(Async.race(cases*)) match
        case Some((_, Success(v))) =>
          val subs = subscribers.get().iterator
          while !closed && subs.hasNext do deliver(subs.next(), Success(v))
        case Some((c, Failure(e))) =>
          removePublisher(c)
          if e.isInstanceOf[ChannelFailedException] then
            val subs = subscribers.get().iterator
            while !closed && subs.hasNext do deliver(subs.next(), Failure(e))
        case None => ()
    subscribers.get().foreach: s =>
      try s.trySend(Failure(ChannelClosedException()))
      catch case _: ChannelClosedException => ()

  /** Sends `v` to `s` unless [[close]] comes first; removes `s` if it is closed. */
  private def deliver(s: SendableChannel[Try[T]], v: Try[T])(using Async): Unit =
    Async.await(Async.either(s.sendSource(v), closing.future)) match
      case Left(Failure(_: ChannelClosedException)) => removeSubscriber(s)
      case _                                        => ()

  def addPublisher(c: ReadableChannel[T]): Unit =
    publishers.updateAndGet(_ :+ c)
    signal()

  def removePublisher(c: ReadableChannel[T]): Unit =
    publishers.updateAndGet(_.filterNot(_ eq c))
    signal()

  def addSubscriber(c: SendableChannel[Try[T]]): Unit =
    subscribers.updateAndGet(_ :+ c)
    signal()

  def removeSubscriber(c: SendableChannel[Try[T]]): Unit =
    subscribers.updateAndGet(_.filterNot(_ eq c))
    signal()

  def close(): Unit =
    closed = true
    closing.tryComplete(Success(()))
    signal()
