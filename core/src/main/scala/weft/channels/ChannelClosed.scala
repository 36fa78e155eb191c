package weft.channels

/**
 * Thrown by sending on a closed channel; the failure read from a closed, drained channel.
 *
 * A channel closed with [[Channel.close]] ("done") fails with this class itself; a channel closed
 * with [[Channel.error]] ("upstream failed") fails with its subclass [[ChannelFailedException]],
 * which carries the cause. Code that only needs "no more values" can match this class and
 * handle both; code that must tell them apart matches [[ChannelFailedException]] first.
 */
class ChannelClosedException(message: String = "the channel is closed")
    extends RuntimeException(message)

/**
 * The failure of every operation on a channel closed with [[Channel.error]]: `getCause` is the
 * cause given there. A subclass of [[ChannelClosedException]], so code written for "closed"
 * still stops on it.
 *
 * @param cause
 *   the cause given to [[Channel.error]]
 */
final class ChannelFailedException(cause: Throwable)
    extends ChannelClosedException(s"the channel was closed with an error: $cause"):
  initCause(cause)

/**
 * Why a channel is closed, as a value: what [[ReadableChannel.readOrClosed]] and
 * [[SendableChannel.sendOrClosed]] return instead of throwing.
 *
 * {{{
 * ch.readOrClosed() match
 *   case ChannelClosed.Done         => // the sender closed the channel: no more values
 *   case ChannelClosed.Error(cause) => // the sender failed
 *   case v: Int                     => // a value
 * }}}
 */
enum ChannelClosed:

  /** Closed with [[Channel.close]]: no more values will come. */
  case Done

  /** Closed with [[Channel.error]]`(cause)`: the sending side failed. */
  case Error(cause: Throwable)

  /** The exception the throwing operations raise for this reason. */
  def toException: ChannelClosedException = this match
    case Done         => ChannelClosedException()
    case Error(cause) => ChannelFailedException(cause)

/** Converting close reasons. */
object ChannelClosed:

  /** The reason an exception of a closed channel stands for. */
  def of(e: ChannelClosedException): ChannelClosed = e match
    case f: ChannelFailedException => Error(f.getCause)
    case _                         => Done
