package weft.guide

import java.io.{BufferedReader, EOFException, InputStreamReader, PrintWriter}
import java.net.Socket
import java.nio.ByteBuffer
import java.nio.channels.ClosedChannelException
import java.nio.charset.StandardCharsets.UTF_8
import scala.concurrent.duration.*
import weft.*
import weft.io.*
import weft.testing.ChildJvm

// example: apps-drain
object LineServer extends WeftApp:
  override def drainGrace: FiniteDuration = 20.seconds // 10 seconds unless overridden

  def run(args: Seq[String])(using Async): Int =
    PIOHelper.withTcpServer(args.head.toInt): server =>
      Async.group: // the connections' scope
        val connections = Scope.current
        val acceptLoop = Future:
          try
            while true do
              val conn = server.accept().await
              connections.fork(serve(conn))
          catch case _: ClosedChannelException if shutdown.isRequested => () // closed below
        println(s"listening on ${server.localPort}")
        shutdown.requested.await // SIGTERM or SIGINT
        server.close() // 1. stop accepting: the pending accept fails
        acceptLoop.await
        summon[Async].group.join() // 2. drain: each connection answers what it has read
    0

  /** Answers requests until the client leaves or the shutdown finds the connection idle. */
  def serve(conn: TcpConnection)(using Async): Unit =
    try
      var request = nextRequest(conn)
      while request.isDefined do
        conn.write(ByteBuffer.wrap(s"${answer(request.get)}\r\n".getBytes(UTF_8))).await
        request = nextRequest(conn)
    catch case _: EOFException => () // the client left
    finally conn.close()

  /** The next request, or `None` if the shutdown is requested while waiting for one. */
  def nextRequest(conn: TcpConnection)(using Async): Option[String] =
    val read = conn.readLine()
    Async.select(
      read ~~> (line => Some(line.get)),
      shutdown.requested ~~> { _ =>
        read.cancel() // idle: give up the read and close...
        read.poll().flatMap(_.toOption) // ...unless a request came in meanwhile: answer it
      }
    )
// end

  /** The protocol: `sleep <ms>` works that long (and says so on stdout), anything else echoes. */
  def answer(request: String)(using Async): String =
    if request.startsWith("sleep ") then
      println("busy")
      sleep(request.drop(6).toLong)
      "slept"
    else request

/** The draining server of docs/guide/apps.md, in a child JVM stopped by a real SIGTERM. */
class AppsDrainGuideSuite extends munit.FunSuite, weft.testing.Deadlined:
  override def testDeadlineSeconds: Int = 120

  final class Client(port: Int):
    val socket = Socket("127.0.0.1", port)
    val in = BufferedReader(InputStreamReader(socket.getInputStream, UTF_8))
    val out = PrintWriter(socket.getOutputStream, true, UTF_8)
    def send(request: String): Unit = out.print(s"$request\r\n"): Unit
    def ask(request: String): String =
      send(request)
      out.flush()
      in.readLine()

  test("apps: SIGTERM: the request in flight is answered, the idle connection closed; 143"):
    val p = ChildJvm.start("weft.guide.LineServer", "0")
    try
      val stdout = ChildJvm.output(p)
      val listening = stdout.readLine()
      assert(listening != null && listening.startsWith("listening on "), listening)
      val port = listening.drop(13).toInt
      val idle = Client(port)
      assertEquals(idle.ask("hello"), "hello")
      val busy = Client(port)
      busy.send("sleep 1000")
      busy.out.flush()
      assertEquals(stdout.readLine(), "busy") // the server has read it
      ChildJvm.signal(p, "TERM")
      assertEquals(busy.in.readLine(), "slept", "the request in flight is answered")
      assertEquals(busy.in.readLine(), null, "then the connection is closed")
      assertEquals(idle.in.readLine(), null, "the idle connection is closed")
      assertEquals(ChildJvm.exitCode(p), 143)
      val err = String(p.getErrorStream.readAllBytes())
      assert(!err.contains("drain deadline"), err)
    finally p.destroyForcibly(): Unit
