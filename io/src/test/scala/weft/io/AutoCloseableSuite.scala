package weft.io

import java.nio.file.Files
import scala.util.Using
import weft.{Async, Resource, await}

/** The io types are `AutoCloseable`: `scala.util.Using` and `Resource.fromAutoCloseable` close them. */
class AutoCloseableSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("Using closes a server, a UDP socket and a file"):
    val path = Files.createTempFile("weft-autocloseable", ".txt")
    try
      val (server, udp, file) =
        Using.resource(TcpServer.bind(0)): s =>
          Using.resource(SocketUDP().open()): u =>
            Using.resource(File(path.toString).open()): f =>
              assert(s.isOpened && u.isOpened && f.isOpened)
              (s, u, f)
      assert(!server.isOpened && !udp.isOpened && !file.isOpened)
    finally Files.deleteIfExists(path): Unit

  test("Resource.fromAutoCloseable closes a connection and its server when use ends"):
    Async.blocking:
      val (server, conn) =
        Resource.fromAutoCloseable(TcpServer.bind(0)).use: s =>
          Resource.fromAutoCloseable(TcpConnection.connect("127.0.0.1", s.localPort).await).use:
            c =>
              assert(c.isOpened)
              (s, c)
      assert(!server.isOpened && !conn.isOpened)
