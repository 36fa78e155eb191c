package weft.io

import java.io.{EOFException, IOException}
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.{CancellationException, CountDownLatch}
import weft.*
import weft.flow.Flow
import weft.testing.Waits

/**
 * `TcpConnection.lines`, `writeLines` and `writeChunks` against a server on 127.0.0.1: the lines,
 * the end at the peer's close, the connection left open (and its unread lines buffered) by an
 * early stop, closed by a cancelled read.
 */
class TcpFlowsSuite extends munit.FunSuite, weft.testing.Deadlined:

  override def testDeadlineSeconds: Int = 60

  private def bytes(s: String) = ByteBuffer.wrap(s.getBytes(UTF_8))

  /** Accepts one connection, runs `serve` on it in a future, runs `client` on a connection to it. */
  private def pair[T](serve: TcpConnection => Async ?=> Unit)(client: TcpConnection => Async ?=> T)(
      using Async
  ): T =
    PIOHelper.withTcpServer(0): server =>
      val served = Future:
        val c = server.accept().await
        try serve(c)
        finally c.close()
      val out = PIOHelper.withTcpConnection("127.0.0.1", server.localPort)(c => client(c))
      Waits.within(served, "the server's side")
      out

  test("lines: every line, in order, until the peer closes; nothing closed by the run"):
    val lines = (1 to 2000).map(i => s"line $i é")
    val (got, stillOpen) = Async.blocking:
      pair(s => s.write(bytes(lines.map(_ + "\r\n").mkString)).await): c =>
        (c.lines().runToList(), c.isOpened)
    assertEquals(got, lines.toList)
    assert(stillOpen, "the run closed the caller's connection")

  test("lines: lines and line ends split between socket reads come out whole"):
    val got = Async.blocking:
      pair { s =>
        for byte <- "first\r\nsecond\r\n\r\né\r\nlast\r\n".getBytes(UTF_8) do
          s.write(ByteBuffer.wrap(Array(byte))).await
          sleep(2) // one byte at a time: most reads on the other side are partial
      }(c => c.lines().runToList())
    assertEquals(got, List("first", "second", "", "é", "last"))

  test("lines: a peer that closes in the middle of a line fails the run with EOFException"):
    val e = Async.blocking:
      pair(s => s.write(bytes("whole\r\nhalf")).await): c =>
        val seen = List.newBuilder[String]
        val e = intercept[EOFException](c.lines().runForeach(seen += _))
        assertEquals(seen.result(), List("whole"))
        e
    assert(e.getMessage.contains("4 bytes unread"), e.getMessage)

  test("lines: a line longer than maxLength fails the run with IOException"):
    val e = Async.blocking:
      pair(s => s.write(bytes("short\r\n" + "x" * 100 + "\r\n")).await): c =>
        intercept[IOException](c.lines(maxLength = 50).runToList())
    assert(e.getMessage.contains("within 50 bytes"), e.getMessage)

  test("lines: a take downstream leaves the connection open and the rest buffered"):
    val (first, rest, open) = Async.blocking:
      pair(s => s.write(bytes("1\r\n2\r\n3\r\n4\r\n")).await): c =>
        val first = c.lines().take(2).runToList()
        (first, c.lines().runToList(), c.isOpened)
    assertEquals(first, List("1", "2"))
    assertEquals(rest, List("3", "4"))
    assert(open)

  test("lines: a run cancelled while it waits for a line closes the connection"):
    val sent = CountDownLatch(1)
    val (outcome, open) = Async.blocking:
      pair { s =>
        s.write(bytes("only\r\n")).await
        sent.countDown()
        s.readLine().result: Unit // until the client's side is closed
      } { c =>
        val got = CountDownLatch(1)
        @volatile var fiber: Thread | Null = null
        val outcome = supervised: // joins the run before we look at the connection
          val run = Future:
            fiber = Thread.currentThread()
            c.lines().runForeach(_ => got.countDown())
          Waits.latch(got, "the first line")
          run.cancel()
          run.result
        assert(!fiber.nn.isAlive, "the run's fiber outlived its scope")
        (outcome, c.isOpened)
      }
    assert(outcome.failed.toOption.exists(_.isInstanceOf[CancellationException]), outcome)
    assert(!open, "the cancelled read left the connection open")

  test("writeLines and writeChunks: what the peer reads, and the counts"):
    val (counts, read) = Async.blocking:
      val out = List.newBuilder[String]
      val counts = pair(s => s.lines().runForeach(out += _)): c =>
        val n = c.writeLines(Flow.range(0, 500).map(i => s"w$i é"))
        val b = c.writeChunks(Flow("x\r\n", "y\r", "\n").map(bytes))
        c.shutdownOutput()
        (n, b)
      (counts, out.result())
    assertEquals(counts, (500L, 6L))
    assertEquals(read, (0 until 500).map(i => s"w$i é").toList ++ List("x", "y"))

  test("writeLines: a failing flow is thrown as it is, the lines before it written"):
    val boom = IllegalStateException("boom")
    val (seen, read) = Async.blocking:
      val out = List.newBuilder[String]
      val seen = pair(s => s.lines().runForeach(out += _)): c =>
        try
          c.writeLines(Flow("a", "b").concat(Flow.failed(boom)))
          None
        catch case e: Throwable => Some(e)
        finally c.shutdownOutput()
      (seen, out.result())
    assert(seen.exists(_ eq boom), seen)
    assertEquals(read, List("a", "b"))

  test("bad arguments: typed errors naming the operator and the parameter, at the call"):
    Async.blocking:
      pair(_ => ()): c =>
        def message(body: => Any) = intercept[IllegalArgumentException](body).getMessage
        assert(message(c.lines(-1)).contains("TcpConnection.lines: maxLength"))
        assert(message(c.writeLines(null)).contains("TcpConnection.writeLines: lines"))
        assert(message(c.writeChunks(null)).contains("TcpConnection.writeChunks: chunks"))

/** The same, with `Async.blocking` entered from a virtual thread. */
class TcpFlowsOnVirtualThreadSuite extends TcpFlowsSuite, weft.OnVirtualThread
