package weft.io

import java.net.{InetSocketAddress, StandardSocketOptions, UnknownHostException}
import java.nio.channels.ServerSocketChannel
import scala.concurrent.duration.{Duration, FiniteDuration}
import weft.{Async, Future}
import weft.runtime.Fiber

/**
 * A listening TCP socket whose accepts are futures.
 *
 * {{{
 * Async.blocking:
 *   PIOHelper.withTcpServer(0): server =>
 *     val port = server.localPort
 *     val conn = server.accept().await
 *     ...
 * }}}
 *
 * Several accepts may be in flight at once; each incoming connection goes to exactly one.
 * Accepted connections get `TCP_NODELAY` and the server's `readTimeout` and `bufferSize` (see
 * [[TcpConnection]]). Cancelling a pending accept closes the server (the JDK's rule for an
 * interrupted channel, made unconditional): [[isOpened]] becomes `false`. A connection
 * accepted by a cancelled accept is closed, never leaked.
 */
final class TcpServer private (
    channel: ServerSocketChannel,
    readTimeout: FiniteDuration,
    bufferSize: Int
) extends IOResource:

  /** The port the server listens on (useful after binding port 0). */
  val localPort: Int = channel.socket().getLocalPort

  private[io] def describe: String = s"tcp server port $localPort"

  /** Whether the server is open (neither closed nor closed by a cancellation). */
  def isOpened: Boolean = channel.isOpen

  /** Closes the server; idempotent. Pending accepts fail with `ClosedChannelException`. */
  def close(): Unit = channel.close()

  /** A future of the next incoming connection. */
  def accept()(using Async): Future[TcpConnection] =
    if !channel.isOpen then Future.failed(IOErrors.closed(describe))
    else
      IOTask.start(this, (c: TcpConnection) => c.close()):
        val ch = Fiber.waitingOutside(channel.accept())
        try
          ch.setOption(StandardSocketOptions.TCP_NODELAY, java.lang.Boolean.TRUE)
          val remote = ch.getRemoteAddress.asInstanceOf[InetSocketAddress]
          TcpConnection(ch, remote, readTimeout, bufferSize)
        catch
          case e: Throwable =>
            ch.close()
            throw e

  override def toString: String =
    val where =
      try
        channel.getLocalAddress match
          case a: InetSocketAddress => s"${a.getHostString}:${a.getPort}"
          case _                    => s"port $localPort"
      catch case _: java.io.IOException => s"port $localPort"
    s"TcpServer($where, ${if isOpened then "open" else "closed"})"

/** Binding TCP servers. */
object TcpServer:

  /**
   * The default queue length for connections not yet accepted: 4096, the usual Linux cap
   * (`net.core.somaxconn`; the kernel lowers a larger request to it). A short queue makes a burst
   * of a few hundred connects stall: the kernel drops the excess SYNs and the clients retry
   * after a second.
   */
  // With 128, a burst of 200 connects stalled about a second. TcpBacklogSuite reads the backlog
  // the kernel holds (with `ss`), by default and as given to bind and PIOHelper.withTcpServer.
  val DefaultBacklog: Int = 4096

  /**
   * Binds a server to `host:port` (`port` 0: an ephemeral port, see [[TcpServer.localPort]]).
   *
   * @param host
   *   the address to listen on: `127.0.0.1` unless given, so only this machine can connect;
   *   `"0.0.0.0"` listens on every interface
   * @param backlog
   *   the queue length for connections not yet accepted: 4096 ([[DefaultBacklog]]) unless given,
   *   lowered by the kernel to its cap (`net.core.somaxconn` on Linux)
   * @param readTimeout
   *   the read timeout of accepted connections; zero (the default) waits forever
   * @param bufferSize
   *   the initial read buffer size of accepted connections: 8 KiB unless given
   * @throws java.net.BindException
   *   if the address is taken
   * @throws java.net.UnknownHostException
   *   if `host` does not resolve
   */
  def bind(
      port: Int,
      host: String = "127.0.0.1",
      backlog: Int = DefaultBacklog,
      readTimeout: FiniteDuration = Duration.Zero,
      bufferSize: Int = TcpConnection.DefaultBufferSize
  ): TcpServer =
    require(port >= 0 && port <= 65535, s"port must be in 0..65535, got $port")
    require(backlog > 0, s"backlog must be > 0, got $backlog")
    require(readTimeout.length >= 0, s"readTimeout must be >= 0, got $readTimeout")
    require(bufferSize > 0, s"bufferSize must be > 0, got $bufferSize")
    val context = s"tcp server $host:$port"
    val address = InetSocketAddress(host, port)
    if address.isUnresolved then throw UnknownHostException(s"$context: unknown host $host")
    // Every failure closes the channel, not only an IOException: the JDK also throws unchecked
    // exceptions here (TcpSuite, "a failed bind closes its channel", counts descriptors).
    val ch = ServerSocketChannel.open()
    try
      ch.setOption(StandardSocketOptions.SO_REUSEADDR, java.lang.Boolean.TRUE)
      ch.bind(address, backlog)
      TcpServer(ch, readTimeout, bufferSize)
    catch
      case e: Throwable =>
        ch.close()
        throw IOErrors.withContext(e, context)
