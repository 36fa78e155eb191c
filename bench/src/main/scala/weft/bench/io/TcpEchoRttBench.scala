package weft.bench.io

import java.net.{InetSocketAddress, StandardSocketOptions}
import java.nio.ByteBuffer
import java.nio.channels.SocketChannel
import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.{Async, await}
import weft.io.TcpConnection

/**
 * Workload `tcp-echo-rtt`: one 32-byte request and its echo over loopback, on a connection
 * kept open across the run. The echo server is plain blocking NIO, one virtual thread per
 * connection. Every contender loops [[TcpEchoRttBench.Batch]] round trips inside one virtual
 * thread.
 *
 *   - `weft`: `TcpConnection.write(buf).await` then `readFully(buf).await`
 *   - `jdkSocketChannel`: blocking `SocketChannel.write` then `read` until full
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.AverageTime))
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
class TcpEchoRttBench:
  import TcpEchoRttBench.{Batch, Size}

  private var server: EchoServer = null
  private var weftConn: TcpConnection = null
  private var plain: SocketChannel = null

  @Setup(Level.Trial)
  def setup(): Unit =
    server = EchoServer()
    weftConn = Async.blocking(TcpConnection.connect("127.0.0.1", server.port).await)
    plain = SocketChannel.open(InetSocketAddress("127.0.0.1", server.port))
    plain.setOption(StandardSocketOptions.TCP_NODELAY, java.lang.Boolean.TRUE)

  @TearDown(Level.Trial)
  def tearDown(): Unit =
    weftConn.close()
    plain.close()
    server.close()

  @Benchmark
  @OperationsPerInvocation(Batch)
  def weft(): Int = _root_.weft.bench.OnVirtualThread.blocking:
    val out = ByteBuffer.allocateDirect(Size)
    val in = ByteBuffer.allocateDirect(Size)
    var i = 0
    while i < Batch do
      out.clear()
      weftConn.write(out).await
      in.clear()
      weftConn.readFully(in).await
      i += 1
    in.position()

  @Benchmark
  @OperationsPerInvocation(Batch)
  def jdkSocketChannel(): Int = IoBenchSupport.onVirtualThread:
    val out = ByteBuffer.allocateDirect(Size)
    val in = ByteBuffer.allocateDirect(Size)
    var i = 0
    while i < Batch do
      out.clear()
      while out.hasRemaining do plain.write(out)
      in.clear()
      while in.hasRemaining do if plain.read(in) < 0 then throw java.io.EOFException()
      i += 1
    in.position()

/** Parameters of [[TcpEchoRttBench]]. */
object TcpEchoRttBench:
  /** Round trips per benchmark invocation (amortises the platform-to-virtual handoff). */
  inline val Batch = 1000

  /** Request and response size in bytes. */
  inline val Size = 32
