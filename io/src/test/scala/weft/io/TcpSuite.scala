package weft.io

import java.io.{EOFException, IOException}
import java.net.{
  BindException,
  ConnectException,
  ServerSocket,
  SocketTimeoutException,
  UnknownHostException
}
import java.nio.ByteBuffer
import java.nio.channels.ClosedChannelException
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.CancellationException
import scala.concurrent.duration.*
import weft.{Async, Future, await}
import weft.testing.OpenFds

/** `TcpConnection`, `TcpServer` and the TCP helpers against servers on 127.0.0.1. */
class TcpSuite extends munit.FunSuite, weft.testing.Deadlined:

  // hundreds of concurrent clients on a loaded machine
  override def testDeadlineSeconds: Int = 120

  private def bytes(s: String) = ByteBuffer.wrap(s.getBytes(UTF_8))
  private def str(b: ByteBuffer) = UTF_8.decode(b).toString

  /** Serves each accepted connection with `handler` until the scope ends; runs `body(port)`. */
  private type Handler = TcpConnection => Async ?=> Unit

  private def withServer[T](handler: Handler)(body: Int => T)(using Async): T =
    PIOHelper.withTcpServer(0): server =>
      Future:
        while true do
          val c = server.accept().await
          Future:
            try handler(c)
            finally c.close()
      body(server.localPort)

  /**
   * Like [[withServer]], and passes `body` a `settle` that waits until the server has closed every
   * connection it accepted. The server closes its end after the client's close reaches it, so an
   * fd count taken without settling also counts server ends still on their way to closing.
   */
  private def withSettledServer[T](handler: Handler)(body: (Int, () => Unit) => T)(using
      Async
  ): T =
    val open = java.util.concurrent.atomic.AtomicInteger(0)
    val counted: Handler = c =>
      open.incrementAndGet()
      try handler(c)
      finally
        c.close()
        open.decrementAndGet()
    // polls: the test's deadline fails a server end that never closes
    withServer(counted)(port => body(port, () => while open.get > 0 do Thread.sleep(1)))

  /** A port nothing listens on (bound once, then closed): connecting to it is refused. */
  private def closedPort(): Int =
    val s = ServerSocket(0)
    try s.getLocalPort
    finally s.close()

  /** Echoes everything back until the client half-closes. */
  private val echo: Handler = c =>
    val b = ByteBuffer.allocate(4096)
    while c.read(b).await >= 0 do
      b.flip()
      c.write(b).await
      b.clear()
    c.shutdownOutput()

  /** Writes `s` one byte at a time: every read on the other side is partial. */
  private def dribble(c: TcpConnection, s: String)(using Async): Unit =
    for byte <- s.getBytes(UTF_8) do
      c.write(ByteBuffer.wrap(Array(byte))).await
      Thread.sleep(1)

  test("echo: write, read, half-close, read end of stream"):
    Async.blocking:
      withServer(echo): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port): c =>
          c.write(bytes("hello")).await
          assertEquals(str(c.readExactly(5).await), "hello")
          c.shutdownOutput()
          assertEquals(c.read(ByteBuffer.allocate(8)).await, -1)

  test("readLine, readUntil and readExactly reassemble records from partial reads"):
    Async.blocking:
      withServer(c => dribble(c, "VALUE k 0 5\r\nabcde\r\nEND||rest")): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port): c =>
          assertEquals(c.readLine().await, "VALUE k 0 5")
          assertEquals(str(c.readExactly(5).await), "abcde")
          assertEquals(c.readLine().await, "")
          assertEquals(str(c.readUntil("||".getBytes).await), "END")
          val rest = ByteBuffer.allocate(10)
          c.readFully(rest.limit(4)).await
          assertEquals(str(rest.flip()), "rest")

  test("readLine mixed with readExactly larger than the read-ahead: every byte in order"):
    // the record after each line is larger than the read buffer: part of it is already read
    // ahead with the line, the rest comes straight from the socket; then lines again
    val block = TestFiles.text(40 * 1024)
    val stream = s"VALUE a 0 ${block.length}\r\n$block\r\nVALUE b 0 ${block.length}\r\n" +
      s"${block.reverse}\r\nEND\r\n"
    Async.blocking:
      for bufferSize <- Seq(16, TcpConnection.DefaultBufferSize); pieces <- Seq(1, 7, 300) do
        // the stream in `pieces` writes, so reads see it split at different places
        val server: Handler = c =>
          for part <- stream.getBytes(UTF_8).grouped(stream.length / pieces + 1) do
            c.write(ByteBuffer.wrap(part)).await
            Thread.sleep(1)
        withServer(server): port =>
          val c = TcpConnection.connect("127.0.0.1", port, bufferSize = bufferSize).await
          try
            val where = s"buffer $bufferSize, $pieces writes"
            assertEquals(c.readLine().await, s"VALUE a 0 ${block.length}", where)
            assertEquals(str(c.readExactly(block.length + 2).await), block + "\r\n", where)
            assertEquals(c.readLine().await, s"VALUE b 0 ${block.length}", where)
            assertEquals(str(c.readExactly(block.length).await), block.reverse, where)
            assertEquals(c.readLine().await, "", where)
            assertEquals(c.readLine().await, "END", where)
          finally c.close()

  test("a large payload is read fully straight into the caller's buffer"):
    val payload = TestFiles.text(3 * 1024 * 1024)
    Async.blocking:
      withServer(echo): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port): c =>
          val writer = Future(c.write(bytes(payload)).await)
          val in = ByteBuffer.allocateDirect(payload.length)
          c.readFully(in).await
          writer.await
          assertEquals(str(in.flip()), payload)

  test("writeAll sends several buffers in order"):
    Async.blocking:
      withServer(echo): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port): c =>
          c.writeAll(bytes("set k 0 0 3\r\n"), bytes("abc"), bytes("\r\n")).await
          assertEquals(c.readLine().await, "set k 0 0 3")
          assertEquals(c.readLine().await, "abc")

  test("three hundred concurrent clients on virtual threads"):
    val clients = 300
    Async.blocking:
      withServer(echo): port =>
        val results = (0 until clients).map: i =>
          Future:
            PIOHelper.withTcpConnection("127.0.0.1", port): c =>
              c.write(bytes(s"client $i\r\n")).await
              c.readLine().await
        assertEquals(results.map(_.await), (0 until clients).map(i => s"client $i"))

  test("a refused connection fails with ConnectException naming the address"):
    val port = closedPort()
    Async.blocking:
      val e = TcpConnection.connect("127.0.0.1", port).result.failed.get
      assert(e.isInstanceOf[ConnectException], e)
      assert(e.getMessage.contains(s"127.0.0.1:$port"), e.getMessage)

  test("a read timeout fails with SocketTimeoutException and keeps the connection usable"):
    // The server writes only once the client's read has timed out (not after a fixed pause,
    // which a loaded machine can outlast before the read even starts).
    val timedOut = java.util.concurrent.CountDownLatch(1)
    Async.blocking:
      withServer(c =>
        weft.testing.Waits.latch(timedOut, "the client's read timing out")
        c.write(bytes("late\r\n")).await
        c.read(ByteBuffer.allocate(1)).await
      ): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port, readTimeout = 100.millis): c =>
          val e = c.readLine().result.failed.get
          timedOut.countDown()
          assert(e.isInstanceOf[SocketTimeoutException], e)
          assert(e.getMessage.contains(s"127.0.0.1:$port"), e.getMessage)
          assert(c.isOpened)
          var line = c.readLine().result
          while line.isFailure && line.failed.get.isInstanceOf[SocketTimeoutException] do
            line = c.readLine().result
          assertEquals(line.get, "late")

  test("end of stream in the middle of a record fails with EOFException"):
    Async.blocking:
      withServer(c => c.write(bytes("partial")).await): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port): c =>
          assert(c.readLine().result.failed.get.isInstanceOf[EOFException])
      withServer(c => c.write(bytes("abc")).await): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port): c =>
          assert(c.readExactly(10).result.failed.get.isInstanceOf[EOFException])

  test("a record longer than maxLength fails with IOException"):
    Async.blocking:
      withServer(c => c.write(bytes("x" * 100 + "\r\n")).await): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port): c =>
          val e = c.readLine(maxLength = 50).result.failed.get
          assert(e.getClass == classOf[IOException], e)
          assert(e.getMessage.contains("within 50 bytes"), e.getMessage)

  test("a long line grows the read buffer up to maxLength"):
    val long = TestFiles.text(100000)
    Async.blocking:
      withServer(c => c.write(bytes(long + "\r\n")).await): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port): c =>
          assertEquals(c.readLine(maxLength = 200000).await, long)

  test("cancelling a pending read closes the connection; the scope cancels the rest"):
    Async.blocking:
      withServer(c => c.read(ByteBuffer.allocate(1)).await): port =>
        val c = TcpConnection.connect("127.0.0.1", port).await
        val r = c.readLine()
        Thread.sleep(30)
        assertEquals(r.poll(), None)
        r.cancel()
        assert(r.result.failed.get.isInstanceOf[CancellationException])
        assert(!c.isOpened)
        val after = c.write(bytes("x")).result.failed.get
        assert(after.isInstanceOf[ClosedChannelException], after)

  test("a second concurrent read is rejected at the call"):
    Async.blocking:
      withServer(c => c.read(ByteBuffer.allocate(1)).await): port =>
        PIOHelper.withTcpConnection("127.0.0.1", port): c =>
          val first = c.readLine()
          intercept[IllegalStateException](c.readLine())
          first.cancel()

  test("cancelling a pending accept closes the server"):
    Async.blocking:
      val server = TcpServer.bind(0)
      val a = server.accept()
      Thread.sleep(30)
      a.cancel()
      assert(a.result.failed.get.isInstanceOf[CancellationException])
      assert(!server.isOpened)

  test("helpers close their resources on every exit path"):
    var conn: TcpConnection = null
    var srv: TcpServer = null
    Async.blocking:
      intercept[IllegalStateException]:
        withServer(echo): port =>
          PIOHelper.withTcpServer(0)(s => srv = s)
          PIOHelper.withTcpConnection("127.0.0.1", port): c =>
            conn = c
            throw IllegalStateException("boom")
    assert(!conn.isOpened)
    assert(!srv.isOpened)

  test("a failed bind closes its channel: port taken, unknown host (fd count)"):
    val taken = TcpServer.bind(0)
    try
      OpenFds.assertNoGrowth("a bind to a port in use"):
        val e = intercept[BindException](TcpServer.bind(taken.localPort))
        assert(e.getMessage.contains(s"127.0.0.1:${taken.localPort}"), e.getMessage)
      OpenFds.assertNoGrowth("a bind to an unknown host"):
        val e = intercept[UnknownHostException](TcpServer.bind(0, "no-such-host.invalid"))
        assert(e.getMessage.contains("no-such-host.invalid"), e.getMessage)
    finally taken.close()

  test("failed connects and operations on closed ends close what they opened (fd count)"):
    val port = closedPort()
    Async.blocking:
      OpenFds.assertNoGrowth("a refused connect"):
        val e = TcpConnection.connect("127.0.0.1", port).result.failed.get
        assert(e.isInstanceOf[ConnectException], e)
      OpenFds.assertNoGrowth("a connect to an unknown host"):
        val e = TcpConnection.connect("no-such-host.invalid", 80).result.failed.get
        assert(e.isInstanceOf[UnknownHostException], e)
      withSettledServer(echo): (live, settle) =>
        OpenFds.assertNoGrowth("operations on a closed connection", settle = settle):
          val c = TcpConnection.connect("127.0.0.1", live).await
          c.close()
          assert(
            c.read(ByteBuffer.allocate(1)).result.failed.get.isInstanceOf[ClosedChannelException]
          )
          assert(c.write(bytes("x")).result.isFailure)
      OpenFds.assertNoGrowth("an accept on a closed server", rounds = 20):
        val server = TcpServer.bind(0)
        server.close()
        assert(server.accept().result.failed.get.isInstanceOf[ClosedChannelException])

  test("cancelled accepts, reads and connects close what they opened (fd count)"):
    Async.blocking:
      OpenFds.assertNoGrowth("a cancelled pending accept"):
        val server = TcpServer.bind(0)
        val a = server.accept()
        a.cancel()
        assert(a.result.isFailure)
        assert(!server.isOpened)
      withSettledServer(c => c.read(ByteBuffer.allocate(1)).await): (port, settle) =>
        OpenFds.assertNoGrowth("a cancelled pending read", settle = settle):
          val c = TcpConnection.connect("127.0.0.1", port).await
          val r = c.readLine()
          r.cancel()
          assert(r.result.failed.get.isInstanceOf[CancellationException])
          assert(!c.isOpened)
        OpenFds.assertNoGrowth("a connect cancelled at once", settle = settle):
          val f = TcpConnection.connect("127.0.0.1", port)
          f.cancel()
          f.result match
            case scala.util.Success(c) => c.close() // it won the race: the caller owns it
            case _                     => ()

  test("bad input is rejected at the call"):
    intercept[IllegalArgumentException](TcpServer.bind(-1))
    Async.blocking:
      intercept[IllegalArgumentException](TcpConnection.connect("127.0.0.1", 0))
      intercept[IllegalArgumentException](TcpConnection.connect("127.0.0.1", 80, (-1).seconds))
      intercept[IllegalArgumentException](TcpConnection.connect("127.0.0.1", 80, bufferSize = 0))
