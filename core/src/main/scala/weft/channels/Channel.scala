package weft.channels

import scala.util.{Failure, Success, Try}
import weft.{Async, Source}
import weft.internal.channels.CellChannel

/** The sending end of a channel. */
trait SendableChannel[T]:

  /**
   * Sends `x`: returns once a reader took it or it was buffered.
   * @throws ChannelClosedException
   *   if the channel is (or gets, while waiting) closed; `x` was then not delivered
   */
  def send(x: T)(using Async): Unit

  /**
   * Sends `x` as [[send]] does, but returns why the channel is closed instead of throwing:
   * `()` once `x` was taken or buffered, [[ChannelClosed.Done]] or [[ChannelClosed.Error]] if the
   * channel is (or gets, while waiting) closed; `x` was then not delivered.
   * {{{
   * ch.sendOrClosed(x) match
   *   case c: ChannelClosed => stopProducing(c)
   *   case ()               => ()
   * }}}
   */
  def sendOrClosed(x: T)(using Async): Unit | ChannelClosed =
    try send(x)
    catch case e: ChannelClosedException => ChannelClosed.of(e)

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

  /**
   * Suspends until a value can be read and returns it; once the channel is closed and drained,
   * `Failure(ChannelClosedException)` (after [[Channel.close]]) or
   * `Failure(ChannelFailedException)` (after [[Channel.error]]).
   */
  def read()(using Async): Try[T] = Async.await(canRead)

  /** Reads a value if one is ready now: `None` if not, `Some(Failure(..))` once closed. */
  def tryRead(): Option[Try[T]] = canRead.poll()

  /**
   * Reads as [[read]] does, but returns the close reason as a value: the value read, or
   * [[ChannelClosed.Done]] (closed and drained) or [[ChannelClosed.Error]] (closed with
   * [[Channel.error]]). Nothing is thrown for a closed channel.
   * {{{
   * ch.readOrClosed() match
   *   case ChannelClosed.Done     => finish()
   *   case ChannelClosed.Error(e) => fail(e)
   *   case v: Int                 => use(v)
   * }}}
   */
  def readOrClosed()(using Async): T | ChannelClosed = read() match
    case Success(v)                         => v
    case Failure(e: ChannelClosedException) => ChannelClosed.of(e)
    case Failure(e)                         => throw e

  /**
   * Reads every value until the channel is closed and drained, running `f` on each in order; a
   * `for v <- ch do ...` loop calls this. Returns once the channel is closed with
   * [[Channel.close]]. If the caller is cancelled, it stops at once and takes no further value.
   * @throws ChannelFailedException
   *   if the channel was closed with [[Channel.error]] (its `getCause` is the cause); the values
   *   read before were given to `f`
   */
  def foreach(f: T => Unit)(using Async): Unit =
    var more = true
    while more do
      read() match
        case Success(v)                         => f(v)
        case Failure(e: ChannelFailedException) => throw e
        case Failure(_: ChannelClosedException) => more = false
        case Failure(e)                         => throw e

  /**
   * Reads and discards every value until the channel is closed, as [[foreach]] does.
   * @throws ChannelFailedException
   *   if the channel was closed with [[Channel.error]]
   */
  def drain()(using Async): Unit = foreach(_ => ())

  /**
   * Reads every value until the channel is closed, as [[foreach]] does, and returns them in the
   * order read. Waits for the close: on a channel that is never closed it never returns.
   * @throws ChannelFailedException
   *   if the channel was closed with [[Channel.error]]; the values read so far are dropped
   */
  def toList()(using Async): List[T] =
    val b = List.newBuilder[T]
    foreach(b += _)
    b.result()

  /**
   * The values of the channel as an iterator, read as [[foreach]] does: `hasNext` waits for the
   * next value (or the close) and returns `false` once the channel is closed with
   * [[Channel.close]]; it throws [[ChannelFailedException]] after [[Channel.error]]. Use it only
   * in the fiber that owns the `Async`: `hasNext` suspends that fiber.
   */
  def iterator(using Async): Iterator[T] = new Iterator[T]:
    private var ahead: Try[T] | Null = null
    def hasNext: Boolean =
      if ahead == null then ahead = read()
      ahead.nn match
        case Success(_)                         => true
        case Failure(e: ChannelFailedException) => throw e
        case Failure(_: ChannelClosedException) => false
        case Failure(e)                         => throw e
    def next(): T =
      if !hasNext then throw java.util.NoSuchElementException("the channel is closed")
      val v = ahead.nn.get
      ahead = null
      v

/**
 * A channel: values sent on it are read by exactly one reader each, in order per sender.
 *
 * {{{
 * Async.blocking:
 *   val jobs = BufferedChannel[Int](8)
 *   val producer = Future:
 *     for i <- 1 to 5 do jobs.send(i)
 *     jobs.close()
 *   jobs.toList().sum // 15: every value until the close (an error close is rethrown)
 * }}}
 *
 * It is closed once, by [[close]] ("done") or by [[error]] ("failed"); the first call decides
 * and later calls of either do nothing. After [[close]], every waiting sender (and every later
 * send) fails with [[ChannelClosedException]]; readers first drain the values already buffered,
 * then read `Failure(ChannelClosedException)`. After [[error]], senders and readers fail with
 * [[ChannelFailedException]] and the buffered values are dropped.
 * For several consumers that each need every value, see [[ChannelMultiplexer]]; to wait on
 * several channels at once, `Async.select` over their `canRead` and `sendSource` sources.
 */
trait Channel[T] extends SendableChannel[T], ReadableChannel[T], java.io.Closeable:

  /** This channel, seen as its sending end only. */
  def asSendable(): SendableChannel[T] = this

  /** This channel, seen as its reading end only. */
  def asReadable(): ReadableChannel[T] = this

  /** This channel, seen as something to close only. */
  def asCloseable(): java.io.Closeable = this

  /**
   * Closes the channel as "done": no more values will be sent. Waiting and later senders fail
   * with [[ChannelClosedException]]; readers still read the values already buffered, then
   * `Failure(ChannelClosedException)`. Does nothing if the channel is already closed (by either
   * call).
   */
  def close(): Unit

  /**
   * Closes the channel as "failed": the sending side met `cause`, and readers must learn it
   * rather than see a normal end. Every waiting and later sender and reader fails with a
   * [[ChannelFailedException]] whose `getCause` is `cause`; [[ReadableChannel.readOrClosed]]
   * returns `ChannelClosed.Error(cause)`, and [[ReadableChannel.foreach]] throws. The values
   * still buffered are dropped, never read: a read that starts after `error` returned fails at
   * once (a read already under way when `error` is called may still take a value). Does
   * nothing if the channel is already closed (by either call).
   * {{{
   * val producer = Future:
   *   try
   *     for line <- lines do ch.send(parse(line))
   *     ch.close()
   *   catch case e: ParseException => ch.error(e)
   * }}}
   * @throws IllegalArgumentException
   *   if `cause` is `null`
   */
  def error(cause: Throwable): Unit

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
