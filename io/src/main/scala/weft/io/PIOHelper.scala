package weft.io

import java.nio.file.StandardOpenOption
import scala.concurrent.duration.{Duration, FiniteDuration}
import weft.Async

/**
 * Using files and sockets without opening and closing them by hand, in the manner of Python's
 * `with open(...) as f`.
 *
 * {{{
 * PIOHelper.withFile("x.txt", StandardOpenOption.WRITE): f =>
 *   f.writeString("Hello world!").await
 * }}}
 *
 * Each helper opens the resource, runs `f`, and closes the resource on every exit path:
 * normal return, exception, and cancellation of the enclosing future (which surfaces in `f` as
 * an exception). An operation `f` started but did not await is stopped by the close.
 */
object PIOHelper:

  /** Opens `path` with `options` (none: `READ`), runs `f`, closes the file. */
  def withFile[T](path: String, options: StandardOpenOption*)(f: File => T): T =
    val file = File(path).open(options*)
    try f(file)
    finally file.close()

  /** Opens an unbound UDP socket, runs `f`, closes the socket. */
  def withSocketUDP[T]()(f: SocketUDP => T): T =
    val s = SocketUDP().open()
    try f(s)
    finally s.close()

  /** Opens a UDP socket bound to `port` (0: ephemeral), runs `f`, closes the socket. */
  def withSocketUDP[T](port: Int)(f: SocketUDP => T): T =
    val s = SocketUDP().bindAndOpen(port)
    try f(s)
    finally s.close()

  /**
   * Connects to `host:port` (see [[TcpConnection.connect]] for the options), runs `f`, closes
   * the connection. A failure to connect is thrown.
   */
  def withTcpConnection[T](
      host: String,
      port: Int,
      connectTimeout: FiniteDuration = Duration.Zero,
      readTimeout: FiniteDuration = Duration.Zero
  )(f: TcpConnection => T)(using Async): T =
    val c = TcpConnection.connect(host, port, connectTimeout, readTimeout).value
    try f(c)
    finally c.close()

  /**
   * Binds a TCP server to `host:port` (0: ephemeral) with room for `backlog` connections not
   * yet accepted, runs `f`, closes the server.
   */
  def withTcpServer[T](
      port: Int,
      host: String = "127.0.0.1",
      backlog: Int = TcpServer.DefaultBacklog
  )(
      f: TcpServer => T
  ): T =
    val s = TcpServer.bind(port, host, backlog)
    try f(s)
    finally s.close()
