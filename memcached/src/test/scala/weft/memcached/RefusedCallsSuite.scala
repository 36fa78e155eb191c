package weft.memcached

import scala.concurrent.duration.*
import weft.Async
import TestSupport.*

/**
 * Calls the client must refuse before writing a byte, against a real server: a key that has no
 * UTF-8 encoding, a TTL past what the server can hold, a null for any parameter. Each is a typed
 * error naming what is wrong, the server's items are untouched and the connection stays in sync.
 */
class RefusedCallsSuite extends munit.FunSuite, weft.testing.Deadlined:

  private def withClient[T](protocol: Protocol)(body: MemcachedClient => Async ?=> T): T =
    MemcachedServer.withServer(): server =>
      Async.blocking:
        val config = MemcachedConfig(Seq(server.address), protocol = protocol)
        MemcachedClient.resource(config).use(c => body(c))

  /** The connection was never closed (no desync, no reconnection). */
  private def inSync(c: MemcachedClient): Unit =
    val s = c.nodeStats.head
    assertEquals((s.desyncs, s.reconnects), (0L, 0L), s.toString)

  for protocol <- Protocol.values do
    test(s"$protocol regression: a key with a lone surrogate is refused, never sent as '?'"):
      withClient(protocol): c =>
        c.set("user?", b("secret"))
        for bad <- Seq("user\uD800", "user\uDC00", "\uD800user", "user\uDC00\uD800") do
          intercept[InvalidKey](c.get(bad))
          intercept[InvalidKey](c.set(bad, b("overwritten")))
          intercept[InvalidKey](c.delete(bad))
          intercept[InvalidKey](c.getMulti(Seq("user?", bad)))
        assertEquals(c.get("user?").toOption.map(_.string), Some("secret"))
        // a well-formed pair (one code point outside the BMP) is an ordinary key
        c.set("user\uD83D\uDE00", b("smile"))
        assertEquals(c.get("user\uD83D\uDE00").toOption.map(_.string), Some("smile"))
        inSync(c)

    test(s"$protocol regression: a TTL near the top of Duration is refused, not sent negative"):
      withClient(protocol): c =>
        c.set("k", b("v"))
        for ttl <- Seq(
            Duration.fromNanos(Long.MaxValue),
            Duration.fromNanos(Long.MaxValue - 1),
            (Long.MaxValue / 1_000_000_000L).seconds,
            106751.days
          )
        do
          intercept[InvalidArgument](c.set("k2", b("v"), ttl = ttl))
          intercept[InvalidArgument](c.touch("k", ttl))
          intercept[InvalidArgument](c.getAndTouch("k", ttl))
          intercept[InvalidArgument](c.flushAll(ttl))
          intercept[InvalidArgument](c.incr("n", 1, initial = Some(1), ttl = ttl))
        assertEquals(c.get("k").toOption.map(_.string), Some("v"))
        assertEquals(c.get("k2"), Miss)
        assertEquals(c.get("n"), Miss)
        inSync(c)

  test("regression: a null for any parameter is a typed error naming it"):
    withClient(Protocol.Meta): c =>
      c.set("k", b("v"))
      def named(what: String)(call: => Any): Unit =
        val e = intercept[MemcachedException](call)
        assert(
          e.isInstanceOf[InvalidArgument] || e.isInstanceOf[InvalidKey],
          s"$what: ${e.getClass}"
        )
        assert(e.getMessage.contains(what), s"$what: ${e.getMessage}")
      val nullKey: String = null.asInstanceOf[String]
      val nullTtl: FiniteDuration = null.asInstanceOf[FiniteDuration]
      val nullBytes: Array[Byte] = null.asInstanceOf[Array[Byte]]
      named("key")(c.get(nullKey))
      named("keys")(c.getMulti(null.asInstanceOf[Iterable[String]]))
      named("key")(c.getMulti(Seq("k", nullKey)))
      named("ttl")(c.set("k", b("x"), ttl = nullTtl))
      named("ttl")(c.touch("k", nullTtl))
      named("ttl")(c.getAndTouch("k", nullTtl))
      named("ttl")(c.incr("n", 1, ttl = nullTtl))
      named("delay")(c.flushAll(nullTtl))
      named("deadline")(c.get("k", deadline = nullTtl))
      named("deadline")(c.getMulti(Seq("k"), deadline = nullTtl))
      named("deadline")(c.version(deadline = nullTtl))
      named("initial")(c.incr("n", 1, initial = null.asInstanceOf[Option[Long]]))
      named("initial")(c.decr("n", 1, initial = null.asInstanceOf[Option[Long]]))
      named("value")(c.set("k", nullBytes))
      named("value")(c.append("k", nullBytes))
      named("value")(c.put("k", null.asInstanceOf[String]))
      named("codec")(c.put("k", "v")(using null.asInstanceOf[Codec[String]]))
      named("codec")(c.fetch[String]("k")(using null.asInstanceOf[Codec[String]]))
      named("config")(MemcachedClient.open(null.asInstanceOf[MemcachedConfig]))
      assertEquals(c.get("k").toOption.map(_.string), Some("v"))
      assertEquals(c.get("n"), Miss)
      inSync(c)

  test("regression: a null in a configuration is a typed error naming the setting"):
    def named(what: String)(make: => MemcachedConfig): Unit =
      val e = intercept[InvalidArgument](make)
      assert(e.getMessage.contains(what), s"$what: ${e.getMessage}")
    val nullTime: FiniteDuration = null.asInstanceOf[FiniteDuration]
    named("servers")(MemcachedConfig(null.asInstanceOf[Seq[String]]))
    named("server")(MemcachedConfig(Seq(null.asInstanceOf[String])))
    named("protocol")(MemcachedConfig(Seq("h:1"), protocol = null.asInstanceOf[Protocol]))
    named("locator")(MemcachedConfig(Seq("h:1"), locator = null.asInstanceOf[Locator]))
    named("failureMode")(
      MemcachedConfig(Seq("h:1"), failureMode = null.asInstanceOf[FailureMode])
    )
    named("deadline")(MemcachedConfig(Seq("h:1"), deadline = nullTime))
    named("livenessTimeout")(MemcachedConfig(Seq("h:1"), livenessTimeout = nullTime))
