package weft.io

import java.io.{EOFException, IOException, InputStream}
import java.net.{InetSocketAddress, StandardSocketOptions, UnknownHostException}
import java.nio.ByteBuffer
import java.nio.channels.SocketChannel
import java.nio.charset.StandardCharsets
import java.util.concurrent.atomic.{AtomicBoolean, AtomicReference}
import java.util.concurrent.locks.ReentrantLock
import scala.concurrent.duration.{Duration, FiniteDuration}
import weft.{Async, Future}
import weft.runtime.Fiber

/**
 * A TCP connection with buffered reading for protocol clients: read into a buffer, read exactly
 * `n` bytes, read up to a delimiter (a `"\r\n"` line), write whole buffers, half-close, close.
 * Every operation is a future run on its own virtual thread over a blocking `SocketChannel`.
 *
 * {{{
 * Async.blocking:
 *   PIOHelper.withTcpConnection("127.0.0.1", 11211): c =>
 *     c.write(ByteBuffer.wrap("version\r\n".getBytes)).await
 *     c.readLine().await
 * }}}
 *
 * ==Buffering==
 * Reads go through an internal buffer of `bufferSize` bytes (grown for a long delimited
 * record up to its `maxLength`): a delimiter search fills it from the socket and returns the
 * bytes before the delimiter in a new buffer; [[readFully]] drains it first, then reads a large
 * remainder straight into the caller's buffer (no copy) and a small one through the internal
 * buffer (one system call for many small records). Bytes read ahead are never lost: they wait
 * in the buffer for the next read.
 *
 * At most one read may be in flight (a second fails at the call with `IllegalStateException`);
 * writes may be concurrent and are serialised, each buffer written whole.
 *
 * ==Timeouts and errors==
 * A read that waits longer than `readTimeout` fails with `SocketTimeoutException`; the
 * connection stays open and the bytes received so far stay buffered, so the read may be
 * retried. A refused connection fails with `ConnectException`, a connect timeout with
 * `SocketTimeoutException`, an end of stream before a read's record is complete (also a clean
 * close before the next `readLine`) with `EOFException`, an operation on a closed connection
 * with `ClosedChannelException`; each names the address.
 *
 * ==Cancellation==
 * Cancelling a pending operation's future closes the connection: after a read cut short at an
 * unknown byte no protocol can continue, so this is the one defined state. Later operations
 * fail with `ClosedChannelException`.
 */
final class TcpConnection private[io] (
    channel: SocketChannel,
    val remoteAddress: InetSocketAddress,
    readTimeout: FiniteDuration,
    bufferSize: Int
) extends IOResource:

  private val timedInput: InputStream | Null =
    if readTimeout.length == 0 then null
    else
      channel.socket().setSoTimeout(math.max(1L, readTimeout.toMillis).min(Int.MaxValue).toInt)
      channel.socket().getInputStream

  // Unread bytes are buf[position, limit). Touched only by the one read in flight; `reading`
  // (a volatile flag set at the call, cleared at the end of the read) orders successive reads.
  private var buf: ByteBuffer = ByteBuffer.allocate(bufferSize).flip()
  private var scanned: Int = 0
  private val reading = AtomicBoolean(false)
  private val writeLock = ReentrantLock()

  private[io] def describe: String =
    s"tcp ${remoteAddress.getHostString}:${remoteAddress.getPort}"

  /** Whether the connection is open (neither closed nor closed by a cancellation). */
  def isOpened: Boolean = channel.isOpen

  /** The local port of this end of the connection. */
  def localPort: Int = channel.socket().getLocalPort

  /** Closes the connection; idempotent. Operations in flight fail. */
  def close(): Unit = channel.close()

  /**
   * Half-closes the connection: the peer reads end-of-stream, and this side can still read.
   * @throws java.nio.channels.ClosedChannelException
   *   if the connection is closed
   */
  def shutdownOutput(): Unit =
    try channel.shutdownOutput()
    catch case e: IOException => throw IOErrors.withContext(e, describe)

  /**
   * Reads at least one byte (buffered ones first) into `dst`.
   * @return
   *   a future of the number of bytes read, `0` only if `dst` is full, `-1` at end of stream
   */
  def read(dst: ByteBuffer)(using Async): Future[Int] =
    checkDestination(dst)
    readOp:
      if !dst.hasRemaining then 0
      else if buf.hasRemaining then transfer(dst)
      else if dst.remaining < buf.capacity then
        val n = fill()
        if n < 0 then -1 else transfer(dst)
      else readDirect(dst)

  /**
   * Reads exactly `dst.remaining` bytes into `dst`.
   * @return
   *   a future completed when `dst` is full; `EOFException` if the stream ends first
   */
  def readFully(dst: ByteBuffer)(using Async): Future[Unit] =
    checkDestination(dst)
    readOp(fillFully(dst))

  /** Reads exactly `n` bytes into a new buffer, returned ready to read (flipped). */
  def readExactly(n: Int)(using Async): Future[ByteBuffer] =
    require(n >= 0, s"readExactly needs n >= 0, got $n")
    readOp:
      val out = ByteBuffer.allocate(n)
      fillFully(out)
      out.flip()

  /**
   * Reads up to the next `delimiter` and returns the bytes before it (flipped); the delimiter
   * is consumed. Fails with `IOException` if no delimiter appears within `maxLength` bytes (64
   * KiB unless given), with `EOFException` if the stream ends first.
   */
  def readUntil(delimiter: Array[Byte], maxLength: Int = TcpConnection.DefaultMaxLength)(using
      Async
  ): Future[ByteBuffer] =
    require(delimiter.nonEmpty, "readUntil needs a non-empty delimiter")
    require(maxLength >= 0, s"readUntil needs maxLength >= 0, got $maxLength")
    readOp(scanUntil(delimiter, maxLength))

  /**
   * Reads a line ended by `"\r\n"` (not returned) and decodes it as UTF-8; lines are limited
   * to `maxLength` bytes, 64 KiB unless given (see [[readUntil]]). A peer that closes the
   * connection fails the read with `EOFException`: the usual end of a server's read loop.
   */
  def readLine(maxLength: Int = TcpConnection.DefaultMaxLength)(using Async): Future[String] =
    require(maxLength >= 0, s"readLine needs maxLength >= 0, got $maxLength")
    readOp:
      val b = scanUntil(TcpConnection.CRLF, maxLength)
      String(b.array, 0, b.limit(), StandardCharsets.UTF_8)

  /**
   * The lines this connection reads, as a [[weft.flow.Flow]]: each run reads lines as
   * [[readLine]] does (ended by `"\r\n"`, decoded as UTF-8, at most `maxLength` bytes) until the
   * peer closes the connection, which ends the flow. A peer that closes in the middle of a line
   * fails the run with `EOFException`; a longer line with `IOException`.
   *
   * The connection stays the caller's: the run neither opens nor closes it, and a run stopped
   * early (a `take` downstream) leaves the lines it did not read buffered for the next read. A
   * run cancelled while it waits for a line closes the connection, as any cancelled read does.
   * Lines already buffered are taken without a thread; a line that must wait for the socket is
   * read by one [[readLine]].
   * @throws IllegalArgumentException
   *   if `maxLength` is negative
   */
  def lines(maxLength: Int = TcpConnection.DefaultMaxLength): weft.flow.Flow[String] =
    TcpFlows.lines(this, maxLength)

  /**
   * Runs `lines` and writes each line to the connection followed by `"\r\n"` (UTF-8), each as
   * soon as it comes (nothing waits for more lines to fill a buffer); returns once the last line
   * is written. The connection stays open (shut down the output or close it to tell the peer
   * the lines are over). A failed write fails the run.
   * @return
   *   the number of lines written
   */
  def writeLines(lines: weft.flow.Flow[String])(using Async): Long =
    TcpFlows.writeLines(this, lines)

  /**
   * Runs `chunks` and writes each buffer whole, in order, as [[write]] does; returns once the
   * last one is written. The connection stays open.
   * @return
   *   the number of bytes written
   */
  def writeChunks(chunks: weft.flow.Flow[ByteBuffer])(using Async): Long =
    TcpFlows.writeChunks(this, chunks)

  /**
   * The next line if one is buffered whole, else `null` (and nothing is read from the socket):
   * how [[lines]] takes buffered lines without a thread per line.
   */
  private[io] def bufferedLine(maxLength: Int): String | Null =
    if !reading.compareAndSet(false, true) then
      throw IllegalStateException(s"$describe: another read is in flight")
    try
      if indexOf(TcpConnection.CRLF) < 0 then null
      else decodeLine(scanUntil(TcpConnection.CRLF, maxLength))
    finally reading.set(false)

  /** As [[readLine]], but `null` if the stream ends cleanly before the next line. */
  private[io] def readLineOrEnd(maxLength: Int)(using Async): Future[String | Null] =
    readOp:
      try decodeLine(scanUntil(TcpConnection.CRLF, maxLength))
      catch case _: EOFException if !buf.hasRemaining => null

  private def decodeLine(b: ByteBuffer): String =
    String(b.array, 0, b.limit(), StandardCharsets.UTF_8)

  /**
   * Writes all the remaining bytes of `src`; the future completes once the last byte is handed
   * to the kernel. It holds no count: a TCP write is whole or fails, so `conn.write(b).await`
   * is a statement with nothing to discard (a [[File.write]] keeps its POSIX-style count).
   */
  def write(src: ByteBuffer)(using Async): Future[Unit] =
    writeOp:
      while src.hasRemaining do
        val _ = channel.write(src)

  /**
   * Writes all the remaining bytes of `srcs`, in order, with gathering writes (a header, a
   * payload and a trailer need no copy into one buffer). As [[write]], the future holds no
   * count.
   */
  def writeAll(srcs: ByteBuffer*)(using Async): Future[Unit] =
    val array = srcs.toArray
    writeOp:
      while array.exists(_.hasRemaining) do
        val _ = channel.write(array)

  override def toString: String =
    s"TcpConnection($describe, ${if isOpened then "open" else "closed"})"

  private def readOp[T](body: => T)(using Async): Future[T] =
    if !channel.isOpen then Future.failed(IOErrors.closed(describe))
    else if !reading.compareAndSet(false, true) then
      throw IllegalStateException(s"$describe: another read is in flight")
    else
      IOTask.start(this):
        try body
        finally reading.set(false)

  private def writeOp[T](body: => T)(using Async): Future[T] =
    if !channel.isOpen then Future.failed(IOErrors.closed(describe))
    else
      IOTask.start(this):
        writeLock.lock()
        try body
        finally writeLock.unlock()

  /** Moves buffered bytes into `dst`; returns how many. */
  private def transfer(dst: ByteBuffer): Int =
    val n = math.min(buf.remaining, dst.remaining)
    dst.put(dst.position(), buf, buf.position(), n)
    dst.position(dst.position() + n)
    buf.position(buf.position() + n)
    scanned = 0
    n

  /** One socket read straight into `dst` (bypassing the buffer); -1 at end of stream. */
  private def readDirect(dst: ByteBuffer): Int =
    val in = timedInput
    if in == null then Fiber.waitingOutside(channel.read(dst))
    else if dst.hasArray then
      val n =
        Fiber.waitingOutside(in.read(dst.array, dst.arrayOffset + dst.position(), dst.remaining))
      if n > 0 then dst.position(dst.position() + n)
      n
    else
      val n = fill()
      if n < 0 then -1 else transfer(dst)

  /** One socket read appending to the buffer (which must have room after compaction). */
  private def fill(): Int =
    buf.compact()
    val n =
      try
        val in = timedInput
        if in == null then Fiber.waitingOutside(channel.read(buf))
        else
          val r = Fiber.waitingOutside(in.read(
            buf.array,
            buf.arrayOffset + buf.position(),
            buf.remaining
          ))
          if r > 0 then buf.position(buf.position() + r)
          r
      finally buf.flip()
    n

  private def fillFully(dst: ByteBuffer): Unit =
    val total = dst.remaining
    if buf.hasRemaining then transfer(dst)
    while dst.hasRemaining do
      val n =
        if dst.remaining < buf.capacity then
          val r = fill()
          if r < 0 then -1 else transfer(dst)
        else readDirect(dst)
      if n < 0 then
        throw EOFException(s"end of stream after ${total - dst.remaining} of $total bytes")

  private def scanUntil(delimiter: Array[Byte], maxLength: Int): ByteBuffer =
    val limitWithDelimiter = maxLength.toLong + delimiter.length
    var result: ByteBuffer | Null = null
    while result == null do
      val at = indexOf(delimiter)
      if at >= 0 then
        val len = at - buf.position()
        if len > maxLength then throw IOException(s"no delimiter within $maxLength bytes")
        val out = ByteBuffer.allocate(len)
        out.put(0, buf, buf.position(), len)
        buf.position(at + delimiter.length)
        scanned = 0
        result = out
      else
        scanned = math.max(0, buf.remaining - (delimiter.length - 1))
        if buf.remaining.toLong >= limitWithDelimiter then
          throw IOException(s"no delimiter within $maxLength bytes")
        if buf.position() == 0 && buf.limit() == buf.capacity then grow(limitWithDelimiter)
        if fill() < 0 then
          throw EOFException(s"end of stream before the delimiter (${buf.remaining} bytes unread)")
    result.nn

  /** Index in `buf` of the first `delimiter` at or after the unscanned part, or -1. */
  private def indexOf(delimiter: Array[Byte]): Int =
    val first = delimiter(0)
    val end = buf.limit() - delimiter.length
    var i = buf.position() + scanned
    while i <= end do
      if buf.get(i) == first then
        var j = 1
        while j < delimiter.length && buf.get(i + j) == delimiter(j) do j += 1
        if j == delimiter.length then return i
      i += 1
    -1

  private def grow(atMost: Long): Unit =
    val size = math.min(math.max(buf.capacity.toLong * 2, 16L), atMost).min(Int.MaxValue).toInt
    val bigger = ByteBuffer.allocate(size)
    bigger.put(buf)
    buf = bigger.flip()

  private def checkDestination(dst: ByteBuffer): Unit =
    require(!dst.isReadOnly, s"cannot read $describe into a read-only buffer")

/** Opening TCP connections. */
object TcpConnection:

  /** The default longest record [[TcpConnection.readUntil]] accepts: 64 KiB. */
  val DefaultMaxLength: Int = 64 * 1024

  /** The default size of the read buffer: 8 KiB. */
  val DefaultBufferSize: Int = 8 * 1024

  private[io] val CRLF = Array[Byte]('\r', '\n')

  /**
   * Connects to `host:port`. By default there is no timeout of weft's own (the connect waits as
   * long as the system does, a read as long as it takes), the read buffer starts at 8 KiB, and
   * `TCP_NODELAY` is on.
   *
   * {{{
   * Async.blocking:
   *   val c = TcpConnection.connect("127.0.0.1", 11211, connectTimeout = 1.second).await
   *   try ... finally c.close() // or PIOHelper.withTcpConnection, which closes it
   * }}}
   *
   * @param connectTimeout
   *   how long to wait for the connection; zero (the default) waits as long as the system does
   * @param readTimeout
   *   how long any one read may wait for data; zero (the default) waits forever
   * @param bufferSize
   *   the initial size of the read buffer (8 KiB unless given; it grows for a long record)
   * @param noDelay
   *   `TCP_NODELAY` (on by default: request/response protocols want small writes sent now)
   * @return
   *   a future of the open connection; `ConnectException` if refused, `SocketTimeoutException`
   *   on connect timeout, `UnknownHostException` for an unknown host. Cancelling it closes the
   *   half-made connection.
   */
  def connect(
      host: String,
      port: Int,
      connectTimeout: FiniteDuration = Duration.Zero,
      readTimeout: FiniteDuration = Duration.Zero,
      bufferSize: Int = DefaultBufferSize,
      noDelay: Boolean = true
  )(using Async): Future[TcpConnection] =
    require(port > 0 && port <= 65535, s"port must be in 1..65535, got $port")
    require(connectTimeout.length >= 0, s"connectTimeout must be >= 0, got $connectTimeout")
    require(readTimeout.length >= 0, s"readTimeout must be >= 0, got $readTimeout")
    require(bufferSize > 0, s"bufferSize must be > 0, got $bufferSize")
    val pending = Connecting(s"tcp $host:$port")
    IOTask.start(pending, (c: TcpConnection) => c.close()):
      val address = InetSocketAddress(host, port)
      if address.isUnresolved then throw UnknownHostException(s"unknown host $host")
      val ch = SocketChannel.open()
      try
        pending.install(ch)
        ch.setOption(StandardSocketOptions.TCP_NODELAY, java.lang.Boolean.valueOf(noDelay))
        if connectTimeout.length > 0 then
          ch.socket().connect(
            address,
            math.max(1L, connectTimeout.toMillis).min(Int.MaxValue).toInt
          )
        else ch.connect(address)
        TcpConnection(ch, address, readTimeout, bufferSize)
      catch
        case e: Throwable =>
          ch.close()
          throw e

  /** The resource of a connection being made: cancelling closes the channel, when it exists. */
  final private class Connecting(name: String) extends IOResource:
    private[io] def describe: String = name
    private val channel = AtomicReference[SocketChannel | Null](null)
    @volatile private var closed = false

    def install(ch: SocketChannel): Unit =
      channel.set(ch)
      if closed then ch.close()

    def close(): Unit =
      closed = true
      val ch = channel.get()
      if ch != null then ch.close()
