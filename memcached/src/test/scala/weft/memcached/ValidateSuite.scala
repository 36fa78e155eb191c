package weft.memcached

import java.nio.charset.StandardCharsets.ISO_8859_1
import scala.concurrent.duration.*
import scala.util.Random

/** Keys and numeric fields are checked before a byte is written (typed errors). */
class ValidateSuite extends munit.FunSuite, weft.testing.Deadlined:

  private def invalid(key: String): Unit =
    intercept[InvalidKey](Validate.key(key, binary = false))

  test("keys: 1 to 250 bytes, no whitespace or control bytes"):
    invalid("")
    invalid("a" * 251)
    invalid("a b")
    invalid("a\tb")
    invalid("a\r\nflush_all")
    invalid("a\u0000b")
    invalid("a\u007fb")
    invalid("é" * 126) // 252 bytes in UTF-8
    assertEquals(Validate.key("a" * 250, binary = false).length, 250)
    assertEquals(String(Validate.key("clé", binary = false), "UTF-8"), "clé")

  test("binary keys: any bytes up to 186, sent as base64"):
    val k = Validate.key("a b\r\n", binary = true)
    assertEquals(
      String(k, ISO_8859_1),
      java.util.Base64.getEncoder.encodeToString("a b\r\n".getBytes)
    )
    assertEquals(Validate.key("x" * 186, binary = true).length, 248)
    intercept[InvalidKey](Validate.key("x" * 187, binary = true))
    intercept[InvalidKey](Validate.key("", binary = true))

  test("TTLs: zero, seconds rounded up, absolute past 30 days, errors"):
    assertEquals(Validate.ttl(Duration.Zero, 1000L), 0L)
    assertEquals(Validate.ttl(1.milli, 1000L), 1L)
    assertEquals(Validate.ttl(30.days, 1000L), 2592000L)
    assertEquals(Validate.ttl(30.days + 1.second, 1000L), 1000L + 2592001L)
    intercept[InvalidArgument](Validate.ttl(-1.second, 1000L))
    intercept[InvalidArgument](Validate.ttl(100000.days, 1_800_000_000L))

  test("deltas, initial values, values and deadlines"):
    intercept[InvalidArgument](Validate.counter("delta", -1))
    assertEquals(Validate.counter("delta", Long.MaxValue), Long.MaxValue)
    intercept[ValueTooLarge](Validate.value(new Array[Byte](11), 10))
    assertEquals(Validate.value(new Array[Byte](10), 10).length, 10)
    intercept[InvalidArgument](Validate.deadline(Duration.Zero))

  test("regression: keys must be valid UTF-16; TTLs near Long.MaxValue nanoseconds are refused"):
    for bad <- Seq("k\uD800", "k\uDC00", "\uD800", "\uDBFF\uDBFF", "a\uDC00\uD800b") do
      intercept[InvalidKey](Validate.key(bad, binary = false))
      intercept[InvalidKey](Validate.key(bad, binary = true))
    assertEquals(Validate.loneSurrogate("ok\uD83D\uDE00"), -1)
    assertEquals(Validate.loneSurrogate("ok\uD83D"), 2)
    assertEquals(String(Validate.key("\uD83D\uDE00", binary = false), "UTF-8"), "\uD83D\uDE00")
    for nanos <- Seq(Long.MaxValue, Long.MaxValue - 999_999_998L, Long.MaxValue / 2) do
      intercept[InvalidArgument](Validate.ttl(Duration.fromNanos(nanos), 1000L))
    assertEquals(Validate.ttl(Duration.fromNanos(1_000_000_001L), 1000L), 2L)
    assertEquals(Validate.ttl(Duration.fromNanos(999_999_999L), 1000L), 1L)

  test("configurations: every setting out of range or null is refused, naming it"):
    def refused(what: String)(make: => MemcachedConfig): Unit =
      val e = intercept[InvalidArgument](make)
      assert(e.getMessage.contains(what), s"$what: ${e.getMessage}")
    refused("at least one server")(MemcachedConfig(Seq.empty[String]))
    refused("meta")(MemcachedConfig(Seq("h:1"), protocol = Protocol.Classic, binaryKeys = true))
    refused("deadline")(MemcachedConfig(Seq("h:1"), deadline = Duration.Zero))
    refused("connectTimeout")(MemcachedConfig(Seq("h:1"), connectTimeout = -1.second))
    refused("livenessTimeout")(MemcachedConfig(Seq("h:1"), livenessTimeout = Duration.Zero))
    refused("reconnectBase")(MemcachedConfig(Seq("h:1"), reconnectBase = Duration.Zero))
    refused("reconnectMax")(MemcachedConfig(Seq("h:1"), reconnectMax = Duration.Zero))
    refused("maxValueSize")(MemcachedConfig(Seq("h:1"), maxValueSize = 0))
    refused("maxReplyValueSize")(MemcachedConfig(Seq("h:1"), maxReplyValueSize = 0))
    refused("maxLineLength")(MemcachedConfig(Seq("h:1"), maxLineLength = 0))
    refused("maxQueued")(MemcachedConfig(Seq("h:1"), maxQueued = 0))
    refused("maxInFlight")(MemcachedConfig(Seq("h:1"), maxInFlight = -1))
    refused("multiGetChunk")(MemcachedConfig(Seq("h:1"), multiGetChunk = 0))
    refused("node naming")(MemcachedConfig(Seq("h:1"), locator = Locator.Ketama(null)))

  test("regression: reconnection delays double up to the cap and never wrap negative"):
    assertEquals((1 to 4).map(Node.backoffNanos(20, 1000, _)), Seq(20L, 40L, 80L, 160L))
    assertEquals(Node.backoffNanos(20, 1000, 10), 1000L)
    val hour = 3_600_000_000_000L
    for f <- Seq(1, 2, 20, 23, 24, 26, 29, 30, 31, 63, 64, 1000) do
      val d = Node.backoffNanos(hour, Long.MaxValue / 2, f)
      assert(d >= hour && d <= Long.MaxValue / 2, s"failure $f: $d")

  test("MultiGetResult.orThrow: the hits, or a failure thrown"):
    val hit = Hit(Array[Byte](1), 0, 0L)
    assertEquals(MultiGetResult(Map("a" -> hit), Map.empty).orThrow, Map("a" -> hit))
    val e = Unavailable("down")
    assert(intercept[Unavailable](MultiGetResult(Map("a" -> hit), Map("b" -> e)).orThrow) eq e)

  test("property: an accepted key encodes to exactly one well-formed request line"):
    val rnd = Random(23)
    val alphabet = "ab \r\n\t\u0000\u007f\u0001é€xyz:/_-"
    var accepted = 0
    for i <- 0 until 20000 do
      val len = rnd.nextInt(260)
      val key =
        if i % 10 == 0 then "a\r\nflush_all"
        else if i % 3 == 0 then "k" * len
        else String(Array.fill(len)(alphabet(rnd.nextInt(alphabet.length))))
      try
        val bytes = Validate.key(key, binary = false)
        accepted += 1
        val out = ByteSink(64)
        MetaWire.encode(GetRequest(bytes, false, true, -1), out)
        val store = StoreRequest(bytes, false, StoreMode.Set, Array[Byte](1, 2), 7, 60, 0, null)
        ClassicWire.encode(store, out)
        val text = String(out.array, 0, out.size, ISO_8859_1)
        val lines = text.split("\r\n", -1)
        assertEquals(lines.length, 4, text) // mg line, set line, value, trailing ""
        for line <- lines.take(2) do
          assertEquals(line.split(' ')(1), String(bytes, ISO_8859_1))
          assert(line.forall(c => c >= 0x20 && c != 0x7f), line)
        assert(bytes.length >= 1 && bytes.length <= 250)
        assert(bytes.forall(b => (b & 0xff) > 0x20 && (b & 0xff) != 0x7f))
      catch case _: InvalidKey => ()
    assert(accepted > 1000, s"only $accepted keys accepted: the generator is too harsh")
