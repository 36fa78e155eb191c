package weft.memcached

import java.nio.charset.StandardCharsets.ISO_8859_1

/** Golden bytes of every request, meta and classic. */
class RequestEncodingSuite extends munit.FunSuite, weft.testing.Deadlined:

  private def k(s: String) = s.getBytes(ISO_8859_1)

  private def wire(meta: Boolean): Wire = Wire(if meta then Protocol.Meta else Protocol.Classic)

  extension (r: Request[?])
    private def accept(reply: Reply, meta: Boolean): Boolean =
      wire(meta).accept(r, reply)

  private def enc(r: Request[?], meta: Boolean, opaque: Int = 5): String =
    r.opaque = opaque
    val out = ByteSink(8)
    wire(meta).encode(r, out)
    String(out.array, 0, out.size, ISO_8859_1)

  test("meta encodings"):
    assertEquals(enc(GetRequest(k("foo"), false, false, -1), true), "mg foo v f k O5\r\n")
    assertEquals(enc(GetRequest(k("foo"), false, true, 30), true), "mg foo v f k c T30 O5\r\n")
    assertEquals(enc(GetRequest(k("Zm9v"), true, false, -1), true), "mg Zm9v v f k O5 b\r\n")
    assertEquals(
      enc(
        StoreRequest(k("foo"), false, StoreMode.Set, k("hi"), 7, 60, 0, StoreRequest.AsAnswered),
        true
      ),
      "ms foo 2 F7 T60 O5\r\nhi\r\n"
    )
    assertEquals(
      enc(
        StoreRequest(k("foo"), false, StoreMode.Add, k("hi"), -1, 0, 0, StoreRequest.AsAnswered),
        true
      ),
      "ms foo 2 F4294967295 ME O5\r\nhi\r\n"
    )
    assertEquals(
      enc(
        StoreRequest(k("foo"), false, StoreMode.Set, k(""), 0, 0, -2, StoreRequest.AsAnswered),
        true
      ),
      "ms foo 0 C18446744073709551614 O5\r\n\r\n"
    )
    assertEquals(
      enc(
        StoreRequest(k("foo"), false, StoreMode.Append, k("x"), 0, 0, 0, StoreRequest.AsAnswered),
        true
      ),
      "ms foo 1 MA O5\r\nx\r\n"
    )
    assertEquals(enc(DeleteRequest(k("foo"), false), true), "md foo O5\r\n")
    assertEquals(enc(ArithRequest(k("n"), false, true, 3, -1, 0), true), "ma n D3 v O5\r\n")
    assertEquals(
      enc(ArithRequest(k("n"), false, false, 3, 10, 60), true),
      "ma n D3 MD N60 J10 v O5\r\n"
    )
    assertEquals(enc(TouchRequest(k("foo"), false, 9), true), "mg foo T9 O5\r\n")
    // a multi-get is one classic get line in both modes; quiet mg lines only for base64 keys
    assertEquals(
      enc(MultiGetRequest(Vector("a", "b"), Vector(k("a"), k("b")), false), true, 7),
      "get a b\r\n"
    )
    assertEquals(
      enc(MultiGetRequest(Vector("a", "b"), Vector(k("YQ=="), k("Yg==")), true), true, 7),
      "mg YQ== v f k q O7 b\r\nmg Yg== v f k q O8 b\r\nmn\r\n"
    )
    assertEquals(enc(VersionRequest(), true), "version\r\n")
    assertEquals(enc(FlushRequest(0), true), "flush_all\r\n")
    assertEquals(enc(FlushRequest(3), true), "flush_all 3\r\n")
    assertEquals(enc(StatsRequest(), true), "stats\r\n")
    assertEquals(enc(DeleteRequest(k("x"), false), true, -1), "md x O4294967295\r\n")

  test("classic encodings"):
    assertEquals(enc(GetRequest(k("foo"), false, false, -1), false), "get foo\r\n")
    assertEquals(enc(GetRequest(k("foo"), false, true, -1), false), "gets foo\r\n")
    assertEquals(enc(GetRequest(k("foo"), false, false, 30), false), "gat 30 foo\r\n")
    assertEquals(
      enc(
        StoreRequest(
          k("foo"),
          false,
          StoreMode.Replace,
          k("hi"),
          7,
          60,
          0,
          StoreRequest.AsAnswered
        ),
        false
      ),
      "replace foo 7 60 2\r\nhi\r\n"
    )
    assertEquals(
      enc(
        StoreRequest(k("foo"), false, StoreMode.Set, k("hi"), 0, 0, 99, StoreRequest.AsAnswered),
        false
      ),
      "cas foo 0 0 2 99\r\nhi\r\n"
    )
    assertEquals(enc(DeleteRequest(k("foo"), false), false), "delete foo\r\n")
    assertEquals(enc(ArithRequest(k("n"), false, false, 3, -1, 0), false), "decr n 3\r\n")
    assertEquals(enc(TouchRequest(k("foo"), false, 9), false), "touch foo 9\r\n")
    assertEquals(
      enc(MultiGetRequest(Vector("a", "b"), Vector(k("a"), k("b")), false), false),
      "get a b\r\n"
    )

  private def reply(s: String): Reply =
    val p = ReplyParser(1024, 1024)
    p.feed(s.getBytes(ISO_8859_1), 0, s.length)
    p.next().nn

  test("replies complete their request; a foreign reply is a desync"):
    val g = GetRequest(k("foo"), false, true, -1)
    g.opaque = 5
    assert(g.accept(reply("VA 2 f3 c8 kfoo O5\r\nhi\r\n"), true))
    assertEquals(g.poll().get.get, Hit(k("hi"), 3, 8))
    val other = GetRequest(k("foo"), false, true, -1)
    other.opaque = 6
    intercept[ProtocolDesync](other.accept(reply("VA 2 kfoo O5\r\nhi\r\n"), true))
    intercept[ProtocolDesync](other.accept(reply("VA 2 kbar O6\r\nhi\r\n"), true))
    intercept[ProtocolDesync](other.accept(reply("HD O6\r\n"), true))
    val s = StoreRequest(k("foo"), false, StoreMode.Set, k("hi"), 0, 0, 0, StoreRequest.AsAnswered)
    assert(s.accept(reply("SERVER_ERROR out of memory storing object\r\n"), true))
    assert(s.poll().get.failed.get.isInstanceOf[ServerError])
    val m = MultiGetRequest(Vector("a", "b"), Vector(k("a"), k("b")), true)
    m.opaque = 10
    assert(!m.accept(reply("VA 1 kb O11\r\nx\r\n"), true))
    intercept[ProtocolDesync](m.accept(reply("VA 1 ka O11\r\nx\r\n"), true))
    // the get line's replies: only the chunk's keys, each once, and only VALUE or END
    val g2 = MultiGetRequest(Vector("a", "b"), Vector(k("a"), k("b")), false)
    assert(!g2.accept(reply("VALUE b 0 1\r\nx\r\n"), true))
    intercept[ProtocolDesync](g2.accept(reply("VALUE c 0 1\r\nx\r\n"), true))
    intercept[ProtocolDesync](g2.accept(reply("VALUE b 0 1\r\nx\r\n"), true))
    intercept[ProtocolDesync](g2.accept(reply("VA 1 ka O10\r\nx\r\n"), true))
    intercept[ProtocolDesync](g2.accept(reply("MN\r\n"), true))
    assert(g2.accept(reply("END\r\n"), true))
    assertEquals(g2.poll().get.get, Map("b" -> Hit(k("x"), 0, 0)))
    // values come in the keys' order; one behind the search (a reordering server) is found too
    val g3 = MultiGetRequest(Vector("a", "b", "c"), Vector(k("a"), k("b"), k("c")), false)
    assert(!g3.accept(reply("VALUE c 0 1\r\nz\r\n"), true))
    assert(!g3.accept(reply("VALUE a 0 1\r\nx\r\n"), true))
    intercept[ProtocolDesync](g3.accept(reply("VALUE c 0 1\r\nz\r\n"), true))
    val g4 = MultiGetRequest(Vector("a", "b", "c"), Vector(k("a"), k("b"), k("c")), false)
    assert(!g4.accept(reply("VALUE c 0 1\r\nz\r\n"), true))
    assert(!g4.accept(reply("VALUE a 0 1\r\nx\r\n"), true))
    assert(g4.accept(reply("END\r\n"), true))
    assertEquals(g4.poll().get.get.keySet, Set("a", "c"))

  test("regression: a multi-get chunk whose opaques wrap around 2^32"):
    val m = MultiGetRequest(Vector("a", "b"), Vector(k("a"), k("b")), true)
    assertEquals(
      enc(m, true, -1),
      "mg a v f k q O4294967295 b\r\nmg b v f k q O0 b\r\nmn\r\n"
    )
    assert(!m.accept(reply("VA 1 ka O4294967295\r\nx\r\n"), true))
    assert(!m.accept(reply("VA 1 kb O0\r\ny\r\n"), true))
    assert(m.accept(reply("MN\r\n"), true))
    assertEquals(m.poll().get.get.keySet, Set("a", "b"))

  test("classic: an error line in place of END fails the read"):
    val g = GetRequest(k("foo"), false, false, -1)
    assert(!g.accept(reply("VALUE foo 0 2\r\nhi\r\n"), false))
    assert(g.accept(reply("SERVER_ERROR out of memory\r\n"), false))
    assert(g.poll().get.failed.get.isInstanceOf[ServerError])
    val m = MultiGetRequest(Vector("a", "b"), Vector(k("a"), k("b")), false)
    assert(!m.accept(reply("VALUE a 0 1\r\nx\r\n"), false))
    assert(m.accept(reply("CLIENT_ERROR bad data chunk\r\n"), false))
    assert(m.poll().get.failed.get.isInstanceOf[ClientError])
