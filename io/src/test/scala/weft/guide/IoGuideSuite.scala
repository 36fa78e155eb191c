package weft.guide

import java.net.ConnectException
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, StandardOpenOption}
import scala.concurrent.duration.*
import weft.*
import weft.io.*

/** The examples of docs/guide/io.md, run. */
class IoGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("io: a TCP echo server and 100 concurrent clients"):
    // example: io-echo
    def line(s: String) = ByteBuffer.wrap(s"$s\r\n".getBytes(UTF_8))

    val replies = Async.blocking:
      PIOHelper.withTcpServer(0): server => // port 0: any free port
        val acceptLoop = Future: // the server: a future per connection
          while true do
            val conn = server.accept().await
            Future:
              try
                while true do conn.write(line(conn.readLine().await)).await
              catch case _: java.io.EOFException => () // the client left: not a failure
              finally conn.close() // the client left or the scope ended
        val clients = (1 to 100).map: i =>
          Future:
            PIOHelper.withTcpConnection("127.0.0.1", server.localPort): c =>
              c.write(line(s"hello $i")).await // a Future[Unit]: the whole buffer, or a failure
              c.readLine().await
        clients.awaitAll // Seq(hello 1, ..., hello 100)
    // the scope's end cancelled the accept loop and every connection's future
    // end
    assertEquals(replies, (1 to 100).map(i => s"hello $i"))

  test("io: write then read a file"):
    val path = Files.createTempFile("weft-guide", ".txt").toString
    try
      // example: io-files
      val text = Async.blocking:
        PIOHelper.withFile(path, StandardOpenOption.WRITE): f =>
          f.writeString("first line\nsecond line\n").await: Unit
        PIOHelper.withFile(path): f => // READ unless told otherwise
          f.readString(1024).await // "first line\nsecond line\n"
      // end
      assertEquals(text, "first line\nsecond line\n")
    finally Files.deleteIfExists(java.nio.file.Path.of(path)): Unit

  test("io: a refused connection is a failed future naming the address"):
    // example: io-refused
    val outcome = Async.blocking:
      val port = PIOHelper.withTcpServer(0)(_.localPort) // a port nobody listens on any more
      TcpConnection.connect("127.0.0.1", port, connectTimeout = 1.second).result
    // Failure(ConnectException: tcp 127.0.0.1:<port>: Connection refused)
    // end
    outcome.failed.toOption match
      case Some(e: ConnectException) => assert(e.getMessage.contains("127.0.0.1"), e.getMessage)
      case other                     => fail(s"expected a ConnectException, got $outcome")
