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

  /**
   * The message of these private subclasses, and a `toString` that names the public JDK class
   * they stand for, so that no internal class name reaches a user's log (`IOErrorsSuite`).
   */
  private trait ShownAs extends Throwable:
    def text: String
    def shownAs: Class[?]
    override def getMessage: String = text
    override def toString: String = s"${shownAs.getName}: $text"

  /** A `ClosedChannelException` naming the closed resource. */
  def closed(context: String): ClosedChannelException = Closed(s"$context: closed")

  /** `ClosedChannelException` with a message; shown as a `ClosedChannelException`. */
  final private class Closed(val text: String) extends ClosedChannelException, ShownAs:
    def shownAs: Class[?] = classOf[ClosedChannelException]

  /** `AsynchronousCloseException` with a message; shown as a `AsynchronousCloseException`. */
  final private class AsyncClosed(val text: String) extends AsynchronousCloseException, ShownAs:
    def shownAs: Class[?] = classOf[AsynchronousCloseException]

  /** `ClosedByInterruptException` with a message; shown as a `ClosedByInterruptException`. */
  final private class ClosedByInterrupt(val text: String) extends ClosedByInterruptException,
        ShownAs:
    def shownAs: Class[?] = classOf[ClosedByInterruptException]

  /** `NonWritableChannelException` with a message; shown as a `NonWritableChannelException`. */
  final private class NotWritable(val text: String) extends NonWritableChannelException, ShownAs:
    def shownAs: Class[?] = classOf[NonWritableChannelException]

  /** `NonReadableChannelException` with a message; shown as a `NonReadableChannelException`. */
  final private class NotReadable(val text: String) extends NonReadableChannelException, ShownAs:
    def shownAs: Class[?] = classOf[NonReadableChannelException]
