package weft.io

import java.net.{Socket, SocketTimeoutException}
import java.nio.ByteBuffer
import java.nio.file.{Files, StandardOpenOption}
import scala.concurrent.duration.*
import weft.{Async, await}

/**
 * The overloads and options of `PIOHelper` a first user asked for: a file by `java.nio.file.Path`,
 * and a server whose accepted connections get a read timeout and a buffer size.
 */
class PIOHelperSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("withFile takes a java.nio.file.Path, with or without options, and closes the file"):
    val path = Files.createTempFile("weft-piohelper", ".txt")
    try
      Async.blocking:
        val written = PIOHelper.withFile(path, StandardOpenOption.WRITE): f =>
          f.writeString("by path").await
          f
        assert(!written.isOpened, "withFile(Path) left the file open")
        val text = PIOHelper.withFile(path)(_.readString(64).await)
        assertEquals(text, "by path")
        assertEquals(Files.readString(path), "by path")
    finally Files.deleteIfExists(path): Unit

  test("withTcpServer gives accepted connections its readTimeout"):
    Async.blocking:
      PIOHelper.withTcpServer(0, readTimeout = 100.millis): server =>
        // a plain JDK client that connects and sends nothing: the accepted end's read must time out
        val client = Socket("127.0.0.1", server.localPort)
        try
          val conn = server.accept().await
          try
            val e = conn.readLine().result.failed.get
            assert(e.isInstanceOf[SocketTimeoutException], e)
            assert(conn.isOpened, "a read timeout closed the connection")
            client.getOutputStream.write("late\r\n".getBytes)
            var line = conn.readLine().result
            var tries = 0
            while line.isFailure && line.failed.get.isInstanceOf[SocketTimeoutException] &&
              tries < 100
            do
              tries += 1
              line = conn.readLine().result
            assertEquals(line.get, "late")
          finally conn.close()
        finally client.close()

  test("withTcpServer gives accepted connections its bufferSize (a long record still fits)"):
    Async.blocking:
      PIOHelper.withTcpServer(0, bufferSize = 16): server =>
        val client = Socket("127.0.0.1", server.localPort)
        try
          val conn = server.accept().await
          try
            val long = "x" * 1000
            client.getOutputStream.write(s"$long\r\n".getBytes)
            assertEquals(conn.readLine().await, long) // the 16-byte buffer grew for it
            conn.write(ByteBuffer.wrap("ok\n".getBytes)).await
            assertEquals(client.getInputStream.readNBytes(3).toSeq, "ok\n".getBytes.toSeq)
          finally conn.close()
        finally client.close()

  test("withTcpServer rejects a negative readTimeout or an empty buffer at the call"):
    intercept[IllegalArgumentException](PIOHelper.withTcpServer(0, readTimeout = -1.second)(_ =>
      ()
    ))
    intercept[IllegalArgumentException](PIOHelper.withTcpServer(0, bufferSize = 0)(_ => ()))
