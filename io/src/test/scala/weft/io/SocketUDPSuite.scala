package weft.io

import java.net.{BindException, UnknownHostException}
import java.nio.ByteBuffer
import java.nio.channels.ClosedChannelException
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.CancellationException
import weft.{Async, Future, await}
import weft.testing.OpenFds

/** `SocketUDP` and `PIOHelper.withSocketUDP` against an echo server on 127.0.0.1. */
class SocketUDPSuite extends munit.FunSuite, weft.testing.Deadlined:

  private def bytes(s: String) = ByteBuffer.wrap(s.getBytes(UTF_8))

  /** Runs an echo server answering `n` datagrams, then `body(port)`. */
  private def withEcho[T](n: Int)(body: Int => T)(using Async): T =
    PIOHelper.withSocketUDP(0): server =>
      val echo = Future:
        for _ <- 0 until n do
          val p = server.receive().await
          server.send(ByteBuffer.wrap(p.getData, 0, p.getLength), "127.0.0.1", p.getPort).await
      val r = body(server.localPort)
      echo.await
      r

  test("seed example: send and receive through an echo server"):
    Async.blocking:
      withEcho(1): port =>
        PIOHelper.withSocketUDP(): s =>
          s.send(bytes("ping"), "127.0.0.1", port).await
          val p = s.receive().await
          assertEquals(String(p.getData, 0, p.getLength, UTF_8), "ping")
          assertEquals(p.getPort, port)

  test("receive into a caller's buffer, without copying"):
    Async.blocking:
      withEcho(1): port =>
        PIOHelper.withSocketUDP(): s =>
          s.send(bytes("zero-copy"), "127.0.0.1", port).await
          val b = ByteBuffer.allocateDirect(64)
          s.receive(b).await
          b.flip()
          assertEquals(UTF_8.decode(b).toString, "zero-copy")

  test("two hundred concurrent clients each get their own reply"):
    val clients = 200
    Async.blocking:
      withEcho(clients): port =>
        val replies = (0 until clients).map: i =>
          Future:
            PIOHelper.withSocketUDP(): s =>
              s.send(bytes(s"client-$i"), "127.0.0.1", port).await
              val p = s.receive().await
              String(p.getData, 0, p.getLength, UTF_8)
        assertEquals(replies.map(_.await), (0 until clients).map(i => s"client-$i"))

  test("operations on a closed socket fail with ClosedChannelException"):
    Async.blocking:
      val s = SocketUDP().open()
      s.close()
      assert(!s.isOpened)
      val e = s.send(bytes("x"), "127.0.0.1", 9).result.failed.get
      assert(e.isInstanceOf[ClosedChannelException], e)
      assert(e.getMessage.contains("udp socket"), e.getMessage)
      assert(s.receive().result.failed.get.isInstanceOf[ClosedChannelException])

  test("an unknown host fails with UnknownHostException naming it"):
    Async.blocking:
      PIOHelper.withSocketUDP(): s =>
        val e = s.send(bytes("x"), "no-such-host.invalid", 9).result.failed.get
        assert(e.isInstanceOf[UnknownHostException], e)
        assert(e.getMessage.contains("no-such-host.invalid"), e.getMessage)

  test("cancelling a pending receive closes the socket"):
    Async.blocking:
      val s = SocketUDP().bindAndOpen(0)
      val r = s.receive()
      Thread.sleep(30)
      assertEquals(r.poll(), None)
      r.cancel()
      assert(r.result.failed.get.isInstanceOf[CancellationException])
      assert(!s.isOpened)

  test("cancelled receives close their sockets (fd count)"):
    Async.blocking:
      OpenFds.assertNoGrowth("a cancelled pending receive"):
        val s = SocketUDP().bindAndOpen(0)
        val r = s.receive()
        r.cancel()
        assert(r.result.failed.get.isInstanceOf[CancellationException])
        assert(!s.isOpened)

  test("the end of the scope cancels pending receives and closes their sockets"):
    val sockets = (0 until 50).map(_ => SocketUDP().bindAndOpen(0))
    val pending = Async.blocking(sockets.map(_.receive()))
    for r <- pending do
      assert(r.poll().exists(_.failed.get.isInstanceOf[CancellationException]), r)
    assert(sockets.forall(!_.isOpened))

  test("withSocketUDP closes the socket when the body throws"):
    var seen: SocketUDP = null
    intercept[IllegalStateException]:
      PIOHelper.withSocketUDP(0): s =>
        seen = s
        throw IllegalStateException("boom")
    assert(!seen.isOpened)

  test("a failed bindAndOpen closes its channel; failed sends leak nothing (fd count)"):
    PIOHelper.withSocketUDP(0): taken =>
      OpenFds.assertNoGrowth("a bind to a port in use"):
        val s = SocketUDP()
        intercept[BindException](s.bindAndOpen(taken.localPort))
        assert(!s.isOpened)
      Async.blocking:
        OpenFds.assertNoGrowth("a send to an unknown host"):
          PIOHelper.withSocketUDP(): s =>
            assert(s.send(bytes("x"), "no-such-host.invalid", 9).result.isFailure)
        OpenFds.assertNoGrowth("operations on a closed socket"):
          val s = SocketUDP().open()
          s.close()
          assert(s.receive().result.failed.get.isInstanceOf[ClosedChannelException])

  test("bad input is rejected at the call"):
    intercept[IllegalArgumentException](SocketUDP(0))
    intercept[IllegalArgumentException](SocketUDP().bindAndOpen(70000))
    Async.blocking:
      PIOHelper.withSocketUDP(): s =>
        intercept[IllegalArgumentException](s.send(bytes("x"), "127.0.0.1", 0))
        intercept[IllegalStateException](s.open())
