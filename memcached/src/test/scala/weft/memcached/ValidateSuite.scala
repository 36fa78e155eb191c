package weft.memcached

import java.nio.charset.StandardCharsets.ISO_8859_1
import scala.concurrent.duration.*
import scala.util.Random

/** Keys and numeric fields are checked before a byte is written (typed errors). */
class ValidateSuite extends munit.FunSuite:

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
        GetRequest(bytes, false, true, -1).encode(out, meta = true)
        StoreRequest(bytes, false, StoreMode.Set, Array[Byte](1, 2), 7, 60, 0).encode(
          out,
          meta = false
        )
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
