package weft.io

import java.net.{DatagramPacket, InetSocketAddress, SocketAddress, UnknownHostException}
import java.nio.ByteBuffer
import java.nio.channels.DatagramChannel
import java.util.concurrent.atomic.AtomicReference
import weft.{Async, Future}
import weft.runtime.Fiber

/**
 * A UDP socket whose sends and receives are futures.
 *
 * {{{
 * Async.blocking:
 *   val s = SocketUDP().bindAndOpen(9000)
 *   try
 *     val p = s.receive().await
 *     s.send(ByteBuffer.wrap(p.getData, 0, p.getLength), "127.0.0.1", p.getPort).await
 *   finally s.close()
 * }}}
 *
 * Each operation runs a blocking `DatagramChannel` call on its own virtual thread. Several
 * sends and receives may be in flight at once; each datagram goes to exactly one receive.
 *
 * Errors: an operation on a socket that is not open fails with `ClosedChannelException`; an
 * unknown host with `UnknownHostException`; both name the socket or address.
 *
 * Cancellation: cancelling a pending operation's future closes the socket (as the JDK does for
 * an interrupted channel): [[isOpened]] becomes `false` and the other operations in flight fail.
 *
 * @param maxPacketSize
 *   the size of the array [[receive]] allocates for each datagram (at most 65507 bytes are
 *   useful over IPv4); a longer datagram is truncated, as `DatagramSocket` does
 */
final class SocketUDP(val maxPacketSize: Int = 65507) extends IOResource:
  require(maxPacketSize > 0, s"maxPacketSize must be > 0, got $maxPacketSize")

  private val channelRef = AtomicReference[DatagramChannel | Null](null)

  private[io] def describe: String =
    val c = channelRef.get()
    val local = if c == null then null else scala.util.Try(c.getLocalAddress).getOrElse(null)
    if local == null then "udp socket" else s"udp socket $local"

  /** Whether the socket is open (neither closed nor closed by a cancellation). */
  def isOpened: Boolean =
    val c = channelRef.get()
    c != null && c.isOpen

  /**
   * Opens the socket bound to `port` on every local address (`0`: an ephemeral port).
   * @throws java.net.BindException
   *   if the port is taken
   */
  def bindAndOpen(port: Int): SocketUDP =
    require(port >= 0 && port <= 65535, s"port must be in 0..65535, got $port")
    val c = DatagramChannel.open()
    try c.bind(InetSocketAddress(port))
    catch
      case e: Throwable =>
        c.close() // a failed bind must not leak the channel (SocketUDPSuite counts descriptors)
        throw IOErrors.withContext(e, s"udp port $port")
    install(c)

  /** Opens the socket unbound: the first send binds it to an ephemeral port. */
  def open(): SocketUDP = install(DatagramChannel.open())

  private def install(c: DatagramChannel): SocketUDP =
    if !channelRef.compareAndSet(null, c) then
      c.close()
      throw IllegalStateException(s"$describe is already open")
    this

  /** The bound local port, or `-1` if unbound or closed. */
  def localPort: Int =
    val c = channelRef.get()
    if c == null || !c.isOpen then -1
    else
      c.getLocalAddress match
        case a: InetSocketAddress => a.getPort
        case _                    => -1

  /** Closes the socket; idempotent. Operations in flight fail with `ClosedChannelException`. */
  def close(): Unit =
    val c = channelRef.getAndSet(null)
    if c != null then c.close()

  /**
   * Sends the remaining bytes of `data` as one datagram to `address:port`.
   * @return
   *   a future completed once the datagram is handed to the network
   */
  def send(data: ByteBuffer, address: String, port: Int)(using Async): Future[Unit] =
    require(port > 0 && port <= 65535, s"port must be in 1..65535, got $port")
    withChannel: c =>
      IOTask.start(this):
        val to = InetSocketAddress(address, port)
        if to.isUnresolved then throw UnknownHostException(s"$describe: unknown host $address")
        c.send(data, to)
        ()

  /** Receives one datagram into a new array of [[maxPacketSize]] bytes. */
  def receive()(using Async): Future[DatagramPacket] =
    withChannel: c =>
      IOTask.start(this):
        val a = new Array[Byte](maxPacketSize)
        val bb = ByteBuffer.wrap(a)
        val from = Fiber.waitingOutside(c.receive(bb))
        DatagramPacket(a, 0, bb.position(), from)

  /**
   * Receives one datagram into `buffer` (without copying; the excess of a longer datagram is
   * dropped).
   * @return
   *   a future of the sender's address
   */
  def receive(buffer: ByteBuffer)(using Async): Future[SocketAddress] =
    require(!buffer.isReadOnly, s"cannot receive into a read-only buffer")
    withChannel(c => IOTask.start(this)(Fiber.waitingOutside(c.receive(buffer))))

  override def toString: String = s"SocketUDP(${if isOpened then s"port $localPort" else "closed"})"

  private inline def withChannel[T](inline op: DatagramChannel => Future[T]): Future[T] =
    val c = channelRef.get()
    if c == null then Future.failed(IOErrors.closed(describe)) else op(c)
