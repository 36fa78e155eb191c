package weft.bench.io

import java.net.{InetSocketAddress, StandardSocketOptions}
import java.nio.ByteBuffer
import java.nio.channels.ServerSocketChannel

/**
 * The loopback echo server of the TCP workloads: plain blocking NIO, an accept loop and one
 * virtual thread per connection echoing every byte back; the same for every contender.
 *
 * @param backlog
 *   the listen backlog (many clients connecting at once need more than the default)
 */
final class EchoServer(backlog: Int = 0):
  private val server = ServerSocketChannel.open().bind(InetSocketAddress("127.0.0.1", 0), backlog)

  /** The port it listens on. */
  val port: Int = server.socket().getLocalPort

  Thread.ofVirtual().start(() => serve())

  private def serve(): Unit =
    try
      while true do
        val c = server.accept()
        c.setOption(StandardSocketOptions.TCP_NODELAY, java.lang.Boolean.TRUE)
        Thread.ofVirtual().start: () =>
          val b = ByteBuffer.allocateDirect(4096)
          try
            while c.read(b) >= 0 do
              b.flip()
              while b.hasRemaining do c.write(b)
              b.clear()
          catch case _: java.io.IOException => ()
          finally c.close()
    catch case _: java.io.IOException => ()

  /** Stops accepting (the accept loop ends); open connections end when their clients close. */
  def close(): Unit = server.close()
