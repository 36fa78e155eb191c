package weft.io

import java.nio.file.{Path, StandardOpenOption}
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

  /**
   * Opens `path` with `options` (none: `READ`), runs `f`, closes the file. Opening fails as
   * [[File.open]] does (e.g. `NoSuchFileException` without `CREATE`).
   */
  def withFile[T](path: String, options: StandardOpenOption*)(f: File => T): T =
    val file = File(path).open(options*)
    try f(file)
    finally file.close()

  /** As [[withFile]] with a `String`, for a `java.nio.file.Path`. */
  def withFile[T](path: Path, options: StandardOpenOption*)(f: File => T): T =
    withFile(path.toString, options*)(f)

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
   * Binds a TCP server to `host:port` (0: ephemeral), runs `f`, closes the server. The options
   * are those of [[TcpServer.bind]]: the host defaults to the loopback address `127.0.0.1` (bind
   * `"0.0.0.0"` to accept connections from other machines); the backlog, the queue of
   * connections not yet accepted, to 4096 (the kernel may cap it lower: `net.core.somaxconn` on
   * Linux); accepted connections get `readTimeout` (zero, the default: reads wait without limit)
   * and a read buffer of `bufferSize` bytes (8 KiB).
   */
  def withTcpServer[T](
      port: Int,
      host: String = "127.0.0.1",
      backlog: Int = TcpServer.DefaultBacklog,
      readTimeout: FiniteDuration = Duration.Zero,
      bufferSize: Int = TcpConnection.DefaultBufferSize
  )(
      f: TcpServer => T
  ): T =
    val s = TcpServer.bind(port, host, backlog, readTimeout, bufferSize)
    try f(s)
    finally s.close()
