package weft.memcached

import java.nio.charset.StandardCharsets.ISO_8859_1
import scala.util.Random

/** The incremental reply parser: any fragmentation, error lines, and garbage. */
class ReplyParserSuite extends munit.FunSuite, weft.testing.Deadlined:

  private val stream =
    "VA 5 f7 c9 kfoo O1\r\nhe\r\nl\r\nEN O2\r\nHD O3\r\nNS O4\r\nEX O5\r\nNF O6\r\nMN\r\n" +
      "VALUE k 3 4 77\r\nabcd\r\nEND\r\nSTORED\r\nNOT_STORED\r\nEXISTS\r\nNOT_FOUND\r\n" +
      "DELETED\r\nTOUCHED\r\nOK\r\nVERSION 1.6.18\r\nSTAT pid 12\r\n42\r\nERROR\r\n" +
      "CLIENT_ERROR bad command line format\r\nSERVER_ERROR object too large for cache\r\n" +
      "VA 0 O7\r\n\r\n"

  private def parseAll(bytes: Array[Byte], cuts: Seq[Int]): Seq[String] =
    val p = ReplyParser(1024, 1 << 20)
    val out = Seq.newBuilder[String]
    var from = 0
    for to <- cuts :+ bytes.length do
      p.feed(bytes, from, to - from)
      from = to
      var r = p.next()
      while r != null do
        out += r.nn.toString + (if r.nn.data != null then "|" + String(r.nn.data, ISO_8859_1)
                                else "")
        r = p.next()
    out.result()

  private val whole = parseAll(stream.getBytes(ISO_8859_1), Nil)

  test("a stream of every reply kind, in one piece"):
    assertEquals(whole.length, 23)
    assertEquals(whole.head, "VA 5 f7 c9 kfoo O1 +5 bytes|he\r\nl")
    assertEquals(whole(7), "VALUE k 3 4 77 +4 bytes|abcd")
    assertEquals(whole.last, "VA 0 O7 +0 bytes|")

  test("the same replies when split at every offset, and at every pair of offsets"):
    val b = stream.getBytes(ISO_8859_1)
    for i <- 0 to b.length do assertEquals(parseAll(b, Seq(i)), whole, s"split at $i")
    val rnd = Random(7)
    for _ <- 0 until 2000 do
      val cuts = Seq.fill(2)(rnd.nextInt(b.length + 1)).sorted
      assertEquals(parseAll(b, cuts), whole, s"split at $cuts")
    assertEquals(parseAll(b, 1 until b.length), whole, "one byte at a time")

  test("meta flags and opaque"):
    val p = ReplyParser(1024, 1024)
    p.feed("HD O123 t-1 f0\r\n".getBytes, 0, 16)
    val r = p.next().nn
    assertEquals(r.opaque, 123L)
    assertEquals(r.flag('t'), "-1")
    assertEquals(r.flag('c'), null)

  private def desync(s: String, maxLine: Int = 64, maxData: Int = 100): ProtocolDesync =
    val p = ReplyParser(maxLine, maxData)
    val b = s.getBytes(ISO_8859_1)
    p.feed(b, 0, b.length)
    intercept[ProtocolDesync]:
      var i = 0
      while i < 100 do
        p.next()
        i += 1

  test("garbage and wrong lengths are ProtocolDesync"):
    desync("HELLO\r\n")
    desync("\r\n")
    desync("HD O1\n")
    desync("VA\r\n")
    desync("VA x\r\n")
    desync("VA -1\r\n")
    desync("VA 101\r\n")
    desync("VA 2 O1\r\nhello\r\n") // wrong length: shorter
    desync("VA 4 O1\r\nhi\r\nHD O2\r\n") // wrong length: longer
    desync("VALUE k 0\r\n")
    desync("x" * 100) // no line end within the limit
    desync("\u0000\u0001\u00ff\r\n")

  test("fuzz: random bytes never hang and give only replies or ProtocolDesync"):
    val rnd = Random(42)
    val pieces = Array("VA ", "HD", " O1", "\r\n", "\r", "\n", "5", "-", "x", " ", "END", "VALUE")
    var desyncs = 0
    for _ <- 0 until 5000 do
      val p = ReplyParser(128, 64)
      val s = Seq.fill(rnd.nextInt(12))(
        if rnd.nextBoolean() then pieces(rnd.nextInt(pieces.length))
        else rnd.nextPrintableChar().toString
      ).mkString
      val b = s.getBytes(ISO_8859_1)
      try
        var from = 0
        while from < b.length do
          val n = 1 + rnd.nextInt(b.length - from)
          p.feed(b, from, n)
          from += n
          var guard = 0
          while p.next() != null do
            guard += 1
            assert(guard <= b.length, "more replies than bytes")
      catch case _: ProtocolDesync => desyncs += 1
    assert(desyncs > 100, s"only $desyncs desyncs: the fuzzer is too gentle")

  /** A channel handing out `bytes` in pieces of random sizes, then end of stream. */
  private final class Trickle(bytes: Array[Byte], rnd: Random, most: Int)
      extends java.nio.channels.ReadableByteChannel:
    private var at = 0
    def read(dst: java.nio.ByteBuffer): Int =
      if at == bytes.length then -1
      else
        val n = math.min(math.min(dst.remaining, 1 + rnd.nextInt(most)), bytes.length - at)
        dst.put(bytes, at, n)
        at += n
        n
    def isOpen: Boolean = true
    def close(): Unit = ()

  test("reading from a channel: the same replies, large values read straight into place"):
    val rnd = Random(3)
    val big = "v" * 100_000
    val withBig =
      stream + s"VA ${big.length} O8\r\n$big\r\nVALUE b 0 ${big.length}\r\n$big\r\nEND\r\n"
    val bytes = withBig.getBytes(ISO_8859_1)
    val expected = parseAll(bytes, Nil)
    for most <- Seq(1, 7, 4096, 70_000) do
      val p = ReplyParser(1024, 1 << 20)
      val ch = Trickle(bytes, rnd, most)
      val out = Seq.newBuilder[String]
      while p.readFrom(ch) >= 0 do
        var r = p.next()
        while r != null do
          out += r.nn.toString + (if r.nn.data != null then "|" + String(r.nn.data, ISO_8859_1)
                                  else "")
          r = p.next()
      assertEquals(out.result(), expected, s"pieces of at most $most bytes")
      assertEquals(p.buffered, 0)
