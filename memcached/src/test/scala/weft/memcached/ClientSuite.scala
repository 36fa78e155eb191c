package weft.memcached

import java.nio.charset.StandardCharsets.UTF_8
import scala.concurrent.duration.*
import weft.Async

/** Every command of the API against a real memcached, in meta and in classic mode. */
class ClientSuite extends munit.FunSuite, weft.testing.Deadlined:

  private def b(s: String) = s.getBytes(UTF_8)

  private def withClient[T](protocol: Protocol, binaryKeys: Boolean = false)(
      body: MemcachedClient => Async ?=> T
  ): T =
    MemcachedServer.withServer(): server =>
      Async.blocking:
        val config =
          MemcachedConfig(Seq(server.address), protocol = protocol, binaryKeys = binaryKeys)
        MemcachedClient.resource(config).use(c => body(c))

  for protocol <- Protocol.values do
    test(s"$protocol: get, set, add, replace, append, prepend, delete"):
      withClient(protocol): c =>
        assertEquals(c.get("k"), Miss)
        c.set("k", b("v1"), flags = 42)
        val hit = c.get("k").toOption.get
        assertEquals((hit.string, hit.flags), ("v1", 42))
        assertEquals(c.add("k", b("x")), StoreResult.NotStored)
        assertEquals(c.add("k2", b("x")), StoreResult.Stored)
        assertEquals(c.replace("nope", b("x")), StoreResult.NotStored)
        assertEquals(c.replace("k", b("v2"), flags = -1), StoreResult.Stored)
        assertEquals(c.get("k").toOption.get.flags, -1) // all 32 bits pass through
        assertEquals(c.append("k", b(">")), StoreResult.Stored)
        assertEquals(c.prepend("k", b("<")), StoreResult.Stored)
        assertEquals(c.get("k").toOption.get.string, "<v2>")
        assertEquals(c.append("nope", b(">")), StoreResult.NotStored)
        assert(c.delete("k"))
        assert(!c.delete("k"))
        assertEquals(c.get("k"), Miss)

    test(s"$protocol: gets and cas"):
      withClient(protocol): c =>
        c.set("k", b("a"))
        val h = c.gets("k").toOption.get
        assert(h.cas != 0)
        assertEquals(c.cas("k", b("b"), h.cas), StoreResult.Stored)
        assertEquals(c.cas("k", b("c"), h.cas), StoreResult.Exists)
        assertEquals(c.cas("none", b("c"), h.cas), StoreResult.NotFound)
        assertEquals(c.get("k").toOption.get.string, "b")
        intercept[InvalidArgument](c.cas("k", b("c"), 0L))

    test(s"$protocol: incr and decr, with and without an initial value"):
      withClient(protocol): c =>
        assertEquals(c.incr("n", 1), None)
        assertEquals(c.incr("n", 5, initial = Some(10)), Some(10L))
        assertEquals(c.incr("n", 5, initial = Some(10)), Some(15L))
        assertEquals(c.decr("n", 20), Some(0L))
        assertEquals(c.decr("m", 1, initial = Some(7)), Some(7L))
        // the server keeps a decremented value's length, padding with spaces
        assertEquals(c.get("n").toOption.get.string.trim, "0")
        intercept[InvalidArgument](c.incr("n", -1))
        intercept[InvalidArgument](c.incr("n", 1, initial = Some(-1)))

    test(s"$protocol: incr and decr with initial = Some(0) create a missing counter at 0"):
      withClient(protocol): c =>
        assertEquals(c.incr("up", 5, initial = Some(0)), Some(0L))
        assertEquals(c.get("up").toOption.map(_.string.trim), Some("0"))
        assertEquals(c.incr("up", 5, initial = Some(0)), Some(5L))
        assertEquals(c.decr("down", 5, initial = Some(0)), Some(0L))
        assertEquals(c.get("down").toOption.map(_.string.trim), Some("0"))

    test(s"$protocol: counters at or above 2^63 come back as the unsigned value's bits"):
      withClient(protocol): c =>
        c.set("big", b("9223372036854775807")) // 2^63 - 1
        val v = c.incr("big", 1).get
        assertEquals(v, Long.MinValue) // 2^63: negative as a signed Long
        assertEquals(java.lang.Long.toUnsignedString(v), "9223372036854775808")
        c.set("max", b("18446744073709551615")) // 2^64 - 1
        assertEquals(
          c.incr("max", 0).map(java.lang.Long.toUnsignedString),
          Some("18446744073709551615")
        )
        assertEquals(c.incr("max", 1), Some(0L)) // the server wraps at 2^64

    test(s"$protocol: append and prepend keep the flags; CLIENT_ERROR keeps the connection"):
      withClient(protocol): c =>
        c.set("k", b("v"), flags = 7, ttl = 1.hour)
        assertEquals(c.append("k", b(">")), StoreResult.Stored)
        assertEquals(c.prepend("k", b("<")), StoreResult.Stored)
        val hit = c.get("k").toOption.get
        assertEquals((hit.string, hit.flags), ("<v>", 7))
        c.set("text", b("not a number"))
        val e = intercept[ClientError](c.incr("text", 1)) // the server's CLIENT_ERROR
        assert(!e.retriable)
        assertEquals(c.get("k").toOption.map(_.string), Some("<v>"))
        TestSupport.awaitSettled(c)
        val s = c.nodeStats.head
        assertEquals((s.desyncs, s.reconnects, s.inFlight), (0L, 0L, 0))

    test(s"$protocol: touch, getAndTouch, TTLs (relative and absolute)"):
      withClient(protocol): c =>
        assert(!c.touch("k", 10.seconds))
        c.set("k", b("v"), ttl = 1.second)
        assert(c.touch("k", 100.seconds))
        assertEquals(c.getAndTouch("k", 40.days).toOption.get.string, "v")
        c.set("gone", b("v"), ttl = 1.second)
        c.set("far", b("v"), ttl = 31.days) // sent as an absolute time
        val deadline = System.nanoTime() + 5_000_000_000L
        while c.get("gone") != Miss && System.nanoTime() < deadline do Thread.sleep(100)
        assertEquals(c.get("gone"), Miss)
        assertEquals(c.get("far").toOption.get.string, "v")
        assertEquals(c.get("k").toOption.get.string, "v")
        intercept[InvalidArgument](c.set("k", b("v"), ttl = -1.second))

    test(s"$protocol: version, stats, flushAll, getMulti"):
      withClient(protocol): c =>
        assert(c.version().values.head.matches("""\d+\.\d+\.\d+.*"""))
        assert(c.stats().values.head.contains("curr_connections"))
        (0 until 10).foreach(i => c.set(s"k$i", b(s"v$i")))
        val r = c.getMulti((0 until 20).map(i => s"k$i"))
        assertEquals(r.failures, Map.empty)
        assertEquals(
          r.hits.view.mapValues(_.string).toMap,
          (0 until 10).map(i => s"k$i" -> s"v$i").toMap
        )
        c.flushAll()
        assertEquals(c.get("k1"), Miss)

    test(s"$protocol: getMulti with non-ASCII keys; its result is an ordinary map"):
      withClient(protocol): c =>
        val keys = Seq("clé", "ключ", "☃", "plain")
        keys.foreach(k => c.set(k, b(s"v-$k")))
        val r = c.getMulti(keys :+ "missing-é")
        assertEquals(r.failures, Map.empty)
        assertEquals(r.hits.view.mapValues(_.string).toMap, keys.map(k => k -> s"v-$k").toMap)
        assertEquals(r.hits.size, 4)
        assert(r.hits.contains("ключ") && !r.hits.contains("missing-é"))
        assertEquals(
          r.hits - "☃" + ("x" -> Hit(b("y"), 0, 0L)),
          r.hits.removed("☃").updated("x", Hit(b("y"), 0, 0L))
        )
        assertEquals((r.hits - "☃").size, 3)
        assertEquals(r.hits, keys.map(k => k -> Hit(b(s"v-$k"), 0, 0L)).toMap)
        assertEquals(c.getMulti(keys ++ keys.reverse).hits, r.hits) // repeated keys: read once

    test(s"$protocol: bad keys fail at the call and leave the connection in sync"):
      withClient(protocol): c =>
        c.set("ok", b("v"))
        for bad <- Seq("", "a b", "a\r\nflush_all", "x" * 251, "tab\t") do
          intercept[InvalidKey](c.get(bad))
          intercept[InvalidKey](c.set(bad, b("v")))
        intercept[InvalidKey](c.getMulti(Seq("fine", "not fine")))
        assertEquals(c.get("ok").toOption.get.string, "v")
        assertEquals(c.nodeStats.head.reconnects, 0L)

  test("String codec: UTF-8, flags 0"):
    withClient(Protocol.Meta): c =>
      c.put("s", "héllo ☃")
      assertEquals(c.fetch[String]("s"), Some("héllo ☃"))
      val raw = c.get("s").toOption.get
      assertEquals(raw.flags, 0)
      assertEquals(raw.value.toSeq, "héllo ☃".getBytes(UTF_8).toSeq)

  test("String values are shared with spymemcached both ways (UTF-8, flags 0)"):
    MemcachedServer.withServer(): server =>
      val spy =
        net.spy.memcached.MemcachedClient(java.net.InetSocketAddress("127.0.0.1", server.port))
      try
        Async.blocking:
          MemcachedClient.resource(MemcachedConfig(server.address)).use: c =>
            // bounded, and evaluated before assert (which holds the suite's lock)
            val stored = spy
              .set("from-spy", 0, "héllo ☃")
              .get(weft.testing.Waits.DefaultSeconds.toLong, java.util.concurrent.TimeUnit.SECONDS)
            assert(stored, "spymemcached's set")
            assertEquals(c.fetch[String]("from-spy"), Some("héllo ☃"))
            assertEquals(c.get("from-spy").toOption.get.flags, 0)
            c.put("from-weft", "wörld ☃")
            assertEquals(spy.get("from-weft"), "wörld ☃")
      finally spy.shutdown()

  test("base64 keys: any string up to 186 bytes is a key"):
    withClient(Protocol.Meta, binaryKeys = true): c =>
      val key = "a key with spaces\r\nand a newline"
      c.set(key, b("v"))
      assertEquals(c.get(key).toOption.get.string, "v")
      assertEquals(c.getMulti(Seq(key, "other")).hits.keySet, Set(key))
      assert(c.delete(key))
