package weft.app

import java.io.EOFException
import java.nio.ByteBuffer
import java.nio.channels.ClosedChannelException
import java.nio.charset.StandardCharsets.UTF_8
import scala.concurrent.duration.*
import weft.*
import weft.io.*

/**
 * A line server that `DrainSuite` runs in a child JVM and stops with SIGTERM. A request is
 * `fast <n>` or `slow <n>`; each takes `args(1)` ms of work and is answered `ok <n>`, or
 * `ok <n> closing` once the shutdown is requested, after which the connection is closed. A
 * `slow` request other than a client's first waits for the shutdown request and then never
 * finishes: the drain deadline (`args(0)` ms) cuts it off, whatever the timing of the signal.
 * Prints `listening <port>` when it accepts.
 */
object DrainingServer extends WeftApp:
  @volatile private var drain: FiniteDuration = 60.seconds
  override def drainGrace: FiniteDuration = drain

  def run(args: Seq[String])(using Async): Int =
    drain = args(0).toLong.millis
    val work = args(1).toLong
    PIOHelper.withTcpServer(0): server =>
      Async.group: // the connections' scope
        val connections = Scope.current
        Future:
          try
            while true do
              val conn = server.accept().await
              connections.fork(serve(conn, work))
          catch case _: ClosedChannelException if shutdown.isRequested => () // stopped accepting
        val requested = shutdown.requested // looked at before the test is told to signal
        println(s"listening ${server.localPort}")
        requested.await
        server.close() // stop accepting
        summon[Async].group.join() // the drain: every connection finishes its request
    0

  private def serve(conn: TcpConnection, work: Long)(using Async): Unit =
    try
      var open = true
      while open do
        val request = conn.readLine().await
        val id = request.drop(5)
        if request.startsWith("slow") && id != "0" then
          shutdown.requested.await
          sleep(600_000)
        else sleep(work)
        open = !shutdown.isRequested
        val answer = if open then s"ok $id\r\n" else s"ok $id closing\r\n"
        conn.write(ByteBuffer.wrap(answer.getBytes(UTF_8))).await
    catch case _: EOFException => () // the client left
    finally conn.close()
