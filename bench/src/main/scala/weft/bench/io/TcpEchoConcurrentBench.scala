package weft.bench.io

import java.io.{BufferedReader, InputStreamReader}
import java.net.Socket
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.{Async, await, awaitAll}
import weft.io.TcpConnection

/**
 * Workload `tcp-echo-concurrent`: [[TcpEchoConcurrentBench.Connections]] clients at once, each
 * connecting to a loopback echo server, sending [[TcpEchoConcurrentBench.Lines]] text lines one
 * at a time and reading each echo back as a line, then closing. The score is the time of the
 * whole round (all clients done). It complements `tcp-echo-rtt` (one connection, weft's best
 * case) with what a server's users do: many connections at once.
 *
 * The echo server is the same for both: plain blocking NIO, one virtual thread per connection.
 *
 *   - `weft`: one `weft.Future` per client in one `Async.blocking`; `TcpConnection.connect`,
 *     `write(line).await`, `readLine().await`
 *   - `jdkSocket`: one virtual thread per client; a blocking `java.net.Socket`, its output stream
 *     and a `BufferedReader`'s `readLine`, as a user of the JDK would write it
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.AverageTime))
@OutputTimeUnit(TimeUnit.MILLISECONDS)
class TcpEchoConcurrentBench:
  import TcpEchoConcurrentBench.*

  private var server: EchoServer = null
  private var port = 0

  /** Starts the echo server. */
  @Setup(Level.Trial)
  def setup(): Unit =
    server = EchoServer(backlog = 4096)
    port = server.port

  /** Stops the echo server. */
  @TearDown(Level.Trial)
  def tearDown(): Unit = server.close()

  /** weft.io: a future per client, all awaited; returns the lines echoed. */
  @Benchmark
  def weft(): Int = _root_.weft.bench.OnVirtualThread.blocking:
    (1 to Connections)
      .map: _ =>
        _root_.weft.Future:
          val conn = TcpConnection.connect("127.0.0.1", port).await
          try
            var n = 0
            var i = 0
            while i < Lines do
              conn.write(ByteBuffer.wrap(LineBytes)).await
              if conn.readLine().await.length == Line.length then n += 1
              i += 1
            n
          finally conn.close()
      .awaitAll
      .sum

  /** Blocking JDK sockets, a virtual thread per client; returns the lines echoed. */
  @Benchmark
  def jdkSocket(): Int =
    val counts = new Array[Int](Connections)
    val threads = (0 until Connections).map: c =>
      Thread.ofVirtual().start: () =>
        val s = Socket("127.0.0.1", port)
        try
          s.setTcpNoDelay(true)
          val out = s.getOutputStream
          val in = BufferedReader(InputStreamReader(s.getInputStream, StandardCharsets.UTF_8))
          var i = 0
          while i < Lines do
            out.write(LineBytes)
            out.flush()
            if in.readLine().length == Line.length then counts(c) += 1
            i += 1
        finally s.close()
    threads.foreach(_.join())
    counts.sum

/** Parameters of [[TcpEchoConcurrentBench]]. */
object TcpEchoConcurrentBench:
  /** Clients at once. */
  inline val Connections = 200

  /** Lines each client sends and reads back. */
  inline val Lines = 50

  /** One line without its line end: 31 characters. */
  val Line: String = "the quick brown fox jumps over."

  /**
   * The line as sent, ended by CRLF: `TcpConnection.readLine` reads CRLF-ended lines (network
   * protocols' line end), `BufferedReader.readLine` reads both.
   */
  val LineBytes: Array[Byte] = (Line + "\r\n").getBytes(StandardCharsets.UTF_8)
