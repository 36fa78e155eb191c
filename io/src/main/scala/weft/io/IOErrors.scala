package weft.io

import java.io.{EOFException, IOException}
import java.net.{
  BindException,
  ConnectException,
  NoRouteToHostException,
  PortUnreachableException,
  SocketException,
  SocketTimeoutException,
  UnknownHostException
}
import java.nio.channels.{
  AsynchronousCloseException,
  ClosedByInterruptException,
  ClosedChannelException,
  NonReadableChannelException,
  NonWritableChannelException
}
import java.nio.file.FileSystemException

/**
 * Puts the path or address into the message of the JDK's IO exceptions, keeping their types.
 *
 * A failed IO future holds the exception the JDK threw, re-created as the same class (or, for
 * the `ClosedChannelException` family, which has no message constructor, a private subclass of
 * the same class; so are `NonWritableChannelException` and `NonReadableChannelException`, which
 * have no message at all) whose message starts with the resource, e.g. `tcp 127.0.0.1:11211: Connection
 * refused`. The original is kept as the cause. File system exceptions already name the file and
 * are returned unchanged, as is anything not listed here.
 */
private[io] object IOErrors:

  /** `e` with `context` in its message, of the same type (see the object comment). */
  def withContext(e: Throwable, context: String): Throwable =
    val msg = e.getMessage
    if msg != null && msg.contains(context) then e
    else
      val text = if msg == null || msg.isEmpty then context else s"$context: $msg"
      val out: Throwable = e match
        case _: FileSystemException         => e
        case _: ClosedByInterruptException  => ClosedByInterrupt(text)
        case _: AsynchronousCloseException  => AsyncClosed(text)
        case _: ClosedChannelException      => Closed(text)
        case _: ConnectException            => ConnectException(text)
        case _: SocketTimeoutException      => SocketTimeoutException(text)
        case _: NoRouteToHostException      => NoRouteToHostException(text)
        case _: PortUnreachableException    => PortUnreachableException(text)
        case _: BindException               => BindException(text)
        case _: UnknownHostException        => UnknownHostException(text)
        case _: EOFException                => EOFException(text)
        case _: NonWritableChannelException => NotWritable(s"$text: not open for writing")
        case _: NonReadableChannelException => NotReadable(s"$text: not open for reading")
        case s: SocketException if s.getClass == classOf[SocketException] => SocketException(text)
        case i: IOException if i.getClass == classOf[IOException]         => IOException(text)
        case _                                                            => e
      if out ne e then
        out.initCause(e)
        out.setStackTrace(e.getStackTrace)
      out

  /** A `ClosedChannelException` naming the closed resource. */
  def closed(context: String): ClosedChannelException = Closed(s"$context: closed")

  /** `ClosedChannelException` with a message. */
  final private class Closed(text: String) extends ClosedChannelException:
    override def getMessage: String = text

  /** `AsynchronousCloseException` with a message. */
  final private class AsyncClosed(text: String) extends AsynchronousCloseException:
    override def getMessage: String = text

  /** `ClosedByInterruptException` with a message. */
  final private class ClosedByInterrupt(text: String) extends ClosedByInterruptException:
    override def getMessage: String = text

  /** `NonWritableChannelException` with a message. */
  final private class NotWritable(text: String) extends NonWritableChannelException:
    override def getMessage: String = text

  /** `NonReadableChannelException` with a message. */
  final private class NotReadable(text: String) extends NonReadableChannelException:
    override def getMessage: String = text
