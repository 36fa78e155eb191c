package weft.memcached

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.ISO_8859_1
import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicInteger
import weft.{Async, Future, await}
import weft.io.{TcpConnection, TcpServer}

/**
 * A fake memcached on `weft.io.TcpServer`, for replies a real server never sends. Each
 * accepted connection runs `handler` until it returns or the scope ends; the connection is
 * closed afterwards.
 */
final class FakeServer private (server: TcpServer):

  /** The port. */
  def port: Int = server.localPort

  /** `127.0.0.1:port`. */
  def address: String = s"127.0.0.1:$port"

  /** Connections accepted so far. */
  val accepted = AtomicInteger()

/** Fake servers and reply helpers. */
object FakeServer:

  /** What a fake connection does. */
  type Handler = TcpConnection => Async ?=> Unit

  /** Runs `body` with a fake server serving `handler`; everything stops at the end. */
  def withFake[T](handler: Handler)(body: FakeServer => T)(using Async): T =
    val server = TcpServer.bind(0)
    val fake = FakeServer(server)
    try
      Async.group:
        Future:
          while true do
            val c = server.accept().await
            fake.accepted.incrementAndGet()
            Future:
              try handler(c)
              finally c.close()
        body(fake)
    finally server.close()

  /** Writes `s` (ISO-8859-1). */
  def send(c: TcpConnection, s: String)(using Async): Unit =
    c.write(ByteBuffer.wrap(s.getBytes(ISO_8859_1))).await

  /** Reads one request line (without `"\r\n"`), or `null` at end of stream. */
  def line(c: TcpConnection)(using Async): String | Null =
    try c.readLine().await
    catch case _: java.io.EOFException => null

  /** The opaque token of a meta request line, e.g. `"O12"`, or "" if none. */
  def opaque(line: String): String = line.split(' ').find(_.startsWith("O")).getOrElse("")

  /**
   * A minimal meta server: `mg <key>` answers the value `value(key)` with flags 0 (after
   * `delay()` milliseconds, if any), `mn` answers `MN`; anything else closes the connection.
   */
  def metaGets(value: String => String, delay: () => Int = () => 0): Handler = c =>
    var l = line(c)
    while l != null do
      val parts = l.nn.split(' ')
      parts(0) match
        case "mg" =>
          val d = delay()
          if d > 0 then Thread.sleep(d)
          val v = value(parts(1))
          send(c, s"VA ${v.length} f0 k${parts(1)} ${opaque(l.nn)}\r\n$v\r\n")
        case "mn" => send(c, "MN\r\n")
        case _    => l = null
      if l != null then l = line(c)

  /**
   * A meta server that records each request line and answers `mg` with the value "v" and `ms`
   * with `HD`, holding its answer to `key` (and everything after it) until `release` opens.
   */
  def holding(key: String, lines: ConcurrentLinkedQueue[String], release: CountDownLatch): Handler =
    c =>
      var l = line(c)
      while l != null do
        val s = l.nn
        lines.add(s)
        val parts = s.split(' ')
        // no munit assert here: it locks the suite while it evaluates its condition, and the
        // test's own asserts would wait for this handler to be released
        if parts.length > 1 && parts(1) == key && !release.await(20, TimeUnit.SECONDS) then
          throw IllegalStateException("timed out waiting for the release")
        if parts(0) == "ms" then
          val _ = line(c) // the value
          send(c, s"HD ${opaque(s)}\r\n")
        else if parts(0) == "mg" then send(c, s"VA 1 f0 k${parts(1)} ${opaque(s)}\r\nv\r\n")
        else if parts(0) == "mn" then send(c, "MN\r\n")
        l = line(c)
