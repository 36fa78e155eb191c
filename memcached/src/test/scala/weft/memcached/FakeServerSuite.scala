package weft.memcached

import java.nio.ByteBuffer
import java.util.concurrent.ConcurrentLinkedQueue
import scala.concurrent.duration.*
import scala.util.Random
import weft.{Async, Future, await}
import weft.io.TcpConnection
import FakeServer.{line, opaque, send}
import TestSupport.*

/** Replies a real server never sends: garbage, wrong lengths, foreign replies, silence. */
class FakeServerSuite extends munit.FunSuite, weft.testing.Deadlined:

  // load tests: many calls on a loaded machine
  override def testDeadlineSeconds: Int = 120

  private def cfg(fake: FakeServer) =
    MemcachedConfig(Seq(fake.address), deadline = 2.seconds, livenessTimeout = 300.millis)

  /** Answers every request line with `reply(line)` (which may be null: no answer). */
  private def answering(reply: String => String | Null): FakeServer.Handler = c =>
    var l = line(c)
    while l != null do
      val r = reply(l.nn)
      if r != null then send(c, r.nn)
      l = line(c)

  private def desyncOn(reply: String => String | Null)(using Async): Unit =
    FakeServer.withFake(answering(reply)): fake =>
      withClient(cfg(fake)): c =>
        intercept[ProtocolDesync](c.get("key"))
        assertEquals(c.nodeStats.head.desyncs, 1L)

  test("garbage: ProtocolDesync, the connection replaced"):
    Async.blocking:
      desyncOn(_ => "HELLO WORLD\r\n")
      desyncOn(_ => "\u0000\u0001\u0002\r\n")

  test("wrong lengths: ProtocolDesync, never a value"):
    Async.blocking:
      desyncOn(l => s"VA 2 kkey ${opaque(l)}\r\nhello\r\n")
      desyncOn(l => s"VA -5 kkey ${opaque(l)}\r\nhello\r\n")
      desyncOn(l => s"VA 99999999999 kkey ${opaque(l)}\r\nhello\r\n")

  test("a reply for another request: ProtocolDesync, never a value for the wrong key"):
    Async.blocking:
      desyncOn(_ => "VA 5 kkey O999999\r\nhello\r\n") // another opaque
      desyncOn(l => s"VA 5 kother ${opaque(l)}\r\nhello\r\n") // another key
      desyncOn(l => s"HD ${opaque(l)}\r\n") // another kind

  test("a desync fails every call in flight on the connection, as retriable"):
    Async.blocking:
      val twoThenForeign: FakeServer.Handler = c =>
        line(c)
        line(c)
        send(c, "VA 5 kkey O999999\r\nhello\r\n")
        while line(c) != null do ()
      FakeServer.withFake(twoThenForeign): fake =>
        withClient(cfg(fake).copy(livenessTimeout = 30.seconds)): c =>
          val first = Future(c.get("a"))
          val reached =
            awaitUntil(c.nodeStats.head.inFlight == 1) // wait first: assert holds the suite's lock
          assert(reached)
          val second = Future(c.get("b"))
          val errors = Seq(first, second).map(f => intercept[ProtocolDesync](f.await))
          assert(errors.forall(_.retriable))
          assertEquals(c.nodeStats.head.desyncs, 1L)

  test("replies split into single bytes: all values right"):
    Async.blocking:
      val dribble: FakeServer.Handler = c =>
        var l = line(c)
        while l != null do
          val k = l.nn.split(' ')(1)
          val r = s"VA ${k.length} kk$k ${opaque(l.nn)}\r\n$k\r\n".replace("kk", "k")
          for ch <- r do c.write(ByteBuffer.wrap(Array(ch.toByte))).await
          l = line(c)
      FakeServer.withFake(dribble): fake =>
        withClient(cfg(fake)): c =>
          val calls = (0 until 50).map(i => Future(c.get(s"key$i").toOption.map(_.string)))
          assertEquals(calls.map(_.await), (0 until 50).map(i => Some(s"key$i")))

  test("SERVER_ERROR then close: that call ServerError, the next ConnectionLost"):
    Async.blocking:
      val severe: FakeServer.Handler = c =>
        line(c)
        line(c)
        send(c, "SERVER_ERROR out of memory\r\n")
      FakeServer.withFake(severe): fake =>
        withClient(cfg(fake)): c =>
          val first = Future(c.get("a"))
          Thread.sleep(50)
          val second = Future(c.get("b"))
          intercept[ServerError](first.await)
          intercept[ConnectionLost](second.await)

  test("set and put return Unit once stored; any other answer to them is a ServerError"):
    Async.blocking:
      // answers "stored" to the key "ok" and "not stored" to any other; data lines get no answer
      val picky = answering: l =>
        if !l.startsWith("ms ") then null
        else if l.split(' ')(1) == "ok" then s"HD ${opaque(l)}\r\n"
        else s"NS ${opaque(l)}\r\n"
      FakeServer.withFake(picky): fake =>
        withClient(cfg(fake)): c =>
          val stored: Unit = c.set("ok", b("v"))
          assertEquals(stored, ())
          c.put("ok", "v")
          val e = intercept[ServerError](c.set("refused", b("v")))
          assert(e.getMessage.contains("refused") && e.getMessage.contains("NotStored"), e)
          intercept[ServerError](c.put("refused", "v"))
          assertEquals(c.add("refused", b("v")), StoreResult.NotStored) // conditional: a result

  test("nothing at all: liveness closes the connection (ConnectionLost), then reconnects"):
    Async.blocking:
      FakeServer.withFake(answering(_ => null)): fake =>
        withClient(cfg(fake).copy(deadline = 20.seconds)): c =>
          val e = intercept[ConnectionLost](c.get("a"))
          assert(e.getMessage.contains("liveness"), e.getMessage)
          val reached =
            awaitUntil(fake.accepted.get >= 2) // wait first: assert holds the suite's lock
          assert(reached, "no reconnection")
          // still silent: the next call ends by its deadline (Timeout), or at once if it comes
          // while the node is between connections (Unavailable)
          val next = intercept[MemcachedException](c.get("b", deadline = 50.millis))
          assert(next.isInstanceOf[Timeout] || next.isInstanceOf[Unavailable], next.toString)

  test("classic: a get answered with another key's VALUE line is a desync, never a value"):
    Async.blocking:
      val foreign =
        answering(l => if l.startsWith("get ") then "VALUE other 0 1\r\nx\r\nEND\r\n" else null)
      FakeServer.withFake(foreign): fake =>
        withClient(cfg(fake).copy(protocol = Protocol.Classic)): c =>
          intercept[ProtocolDesync](c.get("key"))
          assertEquals(c.nodeStats.head.desyncs, 1L)

  test("liveness counts from the last byte received: a slow large reply is read whole"):
    Async.blocking:
      val value = "x" * 100_000
      // the reply trickles in 30 pieces, 100 ms apart: 3 s in all, past the liveness limit of
      // 2 s, but never near 2 s without a byte (a 500 ms limit was crossed on a loaded machine)
      val slow: FakeServer.Handler = c =>
        var l = line(c)
        while l != null do
          val bytes = s"VA ${value.length} f0 kbig ${opaque(l.nn)}\r\n$value\r\n".getBytes
          for piece <- bytes.grouped(bytes.length / 30 + 1) do
            c.write(ByteBuffer.wrap(piece)).await
            Thread.sleep(100)
          l = line(c)
      FakeServer.withFake(slow): fake =>
        withClient(cfg(fake).copy(livenessTimeout = 2.seconds, deadline = 20.seconds)): c =>
          assertEquals(c.get("big").toOption.map(_.string), Some(value))
          assertEquals(c.nodeStats.head.reconnects, 0L)

  test("regression: a connection closed by someone else while replies are read is no desync"):
    Async.blocking:
      // answers two `version` lines in one write, so the reader holds the second reply when
      // the first one's request closes the connection
      val both: FakeServer.Handler = c =>
        if line(c) != null && line(c) != null then send(c, "VERSION 1\r\nVERSION 1\r\n")
        while line(c) != null do ()
      FakeServer.withFake(both): fake =>
        val c = MemcachedClient.open(cfg(fake).copy(livenessTimeout = 30.seconds))
        val node = c.nodeFor("any")
        val first = VersionRequest()
        val second = VersionRequest()
        // the first reply closes the node's connection, as a kill or a reset would: its
        // listener runs on the reader, while it hands the reply out
        first.onComplete(new weft.Listener[scala.util.Try[String]]:
          val lock: weft.ListenerLock | Null = null
          def complete(r: scala.util.Try[String], s: weft.Source[scala.util.Try[String]]): Unit =
            node.stop(ConnectionLost("closed by the test"))
        )
        node.submit(first)
        node.submit(second)
        // no deadline is armed on these: wait a bounded time, then fail with what was seen
        val reached = awaitUntil(second.isDone) // wait first: assert holds the suite's lock
        assert(reached, c.nodeStats.head.toString)
        intercept[ConnectionLost](second.await)
        c.close() // joins the reader: the counters are final
        assertEquals(c.nodeStats.head.desyncs, 0L, c.nodeStats.head.toString)

  test("property: no invalid key or field ever reaches the socket"):
    Async.blocking:
      val lines = ConcurrentLinkedQueue[String]()
      val recording: FakeServer.Handler = c =>
        var l = line(c)
        while l != null do
          val s = l.nn
          lines.add(s)
          val p = s.split(' ')
          p(0) match
            case "ms" =>
              c.readExactly(p(2).toInt + 2).await
              send(c, s"HD ${opaque(s)}\r\n")
            case "mn"  => send(c, "MN\r\n")
            case "get" => send(c, "END\r\n")
            case "ma"  => send(c, s"NF ${opaque(s)}\r\n")
            case "md"  => send(c, s"NF ${opaque(s)}\r\n")
            case _ =>
              if s.contains(" q ") || s.endsWith(" q") then () else send(c, s"EN ${opaque(s)}\r\n")
          l = line(c)
      FakeServer.withFake(recording): fake =>
        withClient(cfg(fake)): c =>
          val rnd = Random(4)
          val good = "abcxyz0189é:_-/"
          val bad = " \r\n\t\u0000\u007f\u0001"
          def char() =
            if rnd.nextInt(30) == 0 then bad(rnd.nextInt(bad.length))
            else good(rnd.nextInt(good.length))
          var refused = 0
          for i <- 0 until 3000 do
            val key =
              if i % 7 == 0 then "a\r\nflush_all"
              else String(Array.fill(rnd.nextInt(12) + (if i % 11 == 0 then 245 else 0))(char()))
            try
              i % 6 match
                case 0 => c.get(key)
                case 1 => c.set(key, b("v"), ttl = rnd.nextInt(100).seconds)
                case 2 => c.delete(key)
                case 3 => c.incr(key, rnd.nextLong(), Some(rnd.nextLong()))
                case 4 => c.touch(key, (rnd.nextInt(200) - 100).seconds)
                case _ => c.getMulti(Seq(key, "fine"))
            catch case _: InvalidKey | _: InvalidArgument => refused += 1
          assert(refused > 500 && refused < 2500, s"$refused refused")
          import scala.jdk.CollectionConverters.*
          val all = lines.asScala.toSeq
          assert(all.size > 1000, s"${all.size} lines")
          for l <- all do
            assert(l.forall(ch => ch >= 0x20 && ch != 0x7f), l)
            val p = l.split(' ')
            if p(0) != "mn" then
              val k = p(1).getBytes("UTF-8")
              assert(k.length >= 1 && k.length <= 250 && k.forall(x => (x & 0xff) > 0x20), l)
              assert(
                p.drop(2).forall(t =>
                  t.nonEmpty && !t.startsWith("-") && !t.drop(1).startsWith("-")
                ),
                l
              )
          assertEquals(c.nodeStats.head.desyncs, 0L)
