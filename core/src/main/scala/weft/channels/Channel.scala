package weft.channels

import scala.util.Try
import weft.{Async, Source}

/** Thrown by sending on a closed channel; the failure read from a closed, drained channel. */
final class ChannelClosedException(message: String = "the channel is closed")
    extends RuntimeException(message)

/** The sending end of a channel. */
trait SendableChannel[T]:

  /**
   * Sends `x`: returns once a reader took it or it was buffered.
   * @throws ChannelClosedException
   *   if the channel is (or gets, while waiting) closed; `x` was then not delivered
   */
  def send(x: T)(using Async): Unit

  /**
   * A source for [[weft.Async.select]] that sends `x` when it wins: it offers `Success(())`
   * once `x` was taken or buffered, or `Failure(ChannelClosedException)` if the channel is
   * closed. A losing send source sends nothing.
   */
  def sendSource(x: T): Source[Try[Unit]]

  /**
   * Sends `x` only if that needs no waiting (a reader is waiting for it, or the buffer has
   * room); never blocks.
   * @return
   *   whether `x` was sent
   * @throws ChannelClosedException
   *   if the channel is closed
   */
  def trySend(x: T): Boolean =
    var result: Try[Unit] | Null = null
    sendSource(x).poll(weft.Listener((r, _) => result = r))
    result match
      case null                  => false
      case scala.util.Failure(e) => throw e
      case _                     => true

/** The reading end of a channel. */
trait ReadableChannel[T]:

  /**
   * The source of values read from the channel: each value it offers is taken from the
   * channel by the listener that accepts it, and by no one else. A listener that declines a
   * value (a filter, a lost race) does not consume it. After close and drain it offers
   * `Failure(ChannelClosedException)`.
   */
  val canRead: Source[Try[T]]

  /** Suspends until a value can be read and returns it; `Failure` once closed and drained. */
  def read()(using Async): Try[T] = Async.await(canRead)

  /** Reads a value if one is ready now: `None` if not, `Some(Failure(..))` once closed. */
  def tryRead(): Option[Try[T]] = canRead.poll()

/**
 * A channel: values sent on it are read by exactly one reader each, in order per sender.
 *
 * {{{
 * Async.blocking:
 *   val jobs = BufferedChannel[Int](8)
 *   val producer = Future:
 *     for i <- 1 to 5 do jobs.send(i)
 *     jobs.close()
 *   // read until closed and drained: read() is a Try, Failure(ChannelClosedException) at the end
 *   Iterator.continually(jobs.read()).takeWhile(_.isSuccess).map(_.get).sum // 15
 * }}}
 *
 * `close()` is idempotent: it fails every waiting sender (and later sends) with
 * [[ChannelClosedException]]; readers first drain the values already buffered, then read
 * `Failure(ChannelClosedException)`. For several consumers that each need every value, see
 * [[ChannelMultiplexer]]; to wait on several channels at once, `Async.select` over their
 * `canRead` and `sendSource` sources.
 */
trait Channel[T] extends SendableChannel[T], ReadableChannel[T], java.io.Closeable:

  /** This channel, seen as its sending end only. */
  def asSendable(): SendableChannel[T] = this

  /** This channel, seen as its reading end only. */
  def asReadable(): ReadableChannel[T] = this

  /** This channel, seen as something to close only. */
  def asCloseable(): java.io.Closeable = this

  /** Closes the channel (see the trait comment); later calls do nothing. */
  def close(): Unit

/** A rendezvous channel: `send` returns only once a reader took the value. */
trait SyncChannel[T] extends Channel[T]

/** Creating [[SyncChannel]]s. */
object SyncChannel:
  /** A new rendezvous channel. */
  def apply[T](): SyncChannel[T] = new CellChannel[T](0) with SyncChannel[T]

/** A channel with a buffer of `size` values: `send` waits only while the buffer is full. */
trait BufferedChannel[T] extends Channel[T]

/** Creating [[BufferedChannel]]s. */
object BufferedChannel:
  /**
   * A new channel buffering up to `size` values.
   * @throws IllegalArgumentException
   *   if `size < 1` (use [[SyncChannel]] for a rendezvous)
   */
  def apply[T](size: Int): BufferedChannel[T] =
    if size < 1 then
      throw IllegalArgumentException(
        s"BufferedChannel size must be >= 1, got $size (use SyncChannel() for a rendezvous)"
      )
    new CellChannel[T](size) with BufferedChannel[T]

/** A channel whose buffer grows as needed: `send` never waits. */
trait UnboundedChannel[T] extends Channel[T]

/** Creating [[UnboundedChannel]]s. */
object UnboundedChannel:
  /** A new unbounded channel. */
  def apply[T](): UnboundedChannel[T] =
    new CellChannel[T](CellChannel.Unbounded) with UnboundedChannel[T]
