package weft.memcached

import java.nio.charset.StandardCharsets.ISO_8859_1

/**
 * A reply read on its bytes (flags, tokens and numbers parsed in place, keys compared byte for
 * byte) reads what the text would say, and numbers are written digit by digit as
 * `Long.toString` writes them.
 */
class ReplyBytesSuite extends munit.FunSuite, weft.testing.Deadlined:

  private def k(s: String) = s.getBytes(ISO_8859_1)

  /** The reply of `line`, followed by a data block of the size it names (of `x`s). */
  private def reply(line: String): Reply =
    val p = ReplyParser(1024, 1 << 20)
    val t = line.split(' ')
    val size =
      if t(0) == "VA" then t(1).toInt
      else if t(0) == "VALUE" && t.length > 3 then t(3).toInt else -1
    val b = k(line + "\r\n" + (if size >= 0 then "x" * size + "\r\n" else ""))
    p.feed(b, 0, b.length)
    p.next().nn

  test("meta flags: present, absent, compared by bytes, as numbers"):
    val r = reply("VA 2 f4294967295 c18446744073709551614 kfoo O4294967295")
    assert(r.flagIs('k', k("foo")))
    assert(!r.flagIs('k', k("fo")))
    assert(!r.flagIs('k', k("foo2")))
    assert(!r.flagIs('q', k("")))
    assertEquals(r.flagClientFlags('f'), -1) // all 32 bits
    assertEquals(r.flagUnsigned('c'), -2L) // past 2^63: the slow path
    assertEquals(r.opaque, 4294967295L)
    assertEquals(r.flag('k'), "foo")
    assert(r.hasFlag('c') && !r.hasFlag('t'))
    assertEquals(r.flagClientFlags('x'), 0)
    assertEquals(r.flagUnsigned('x'), 0L)
    // the size token of VA is no flag, even when it starts with a flag's letter
    assertEquals(reply("HD").opaque, -1L)
    assertEquals(reply("HD Oxyz").opaque, -1L)

  test("tokens: compared by bytes, numbers in place, text on demand"):
    val r = reply("VALUE key 123 0 99")
    assert(r.tokenIs(1, k("key")))
    assert(!r.tokenIs(1, k("ke")))
    assert(!r.tokenIs(5, k("")))
    assertEquals(r.tokenClientFlags(2), 123)
    assertEquals(r.tokenUnsigned(4), 99L)
    assertEquals(r.tokenUnsigned(7), 0L) // absent
    assertEquals(r.tokens.toSeq, Seq("VALUE", "key", "123", "0", "99"))
    assertEquals(r.tokenCount, 5)
    assertEquals(reply("18446744073709551615").tokenUnsigned(0), -1L)
    assertEquals(reply("12345678901234567").tokenUnsigned(0), 12345678901234567L)

  test("a bad number in a flag or token is a desync"):
    intercept[ProtocolDesync](reply("VA 1 fx1 kfoo O1").flagClientFlags('f'))
    intercept[ProtocolDesync](reply("VA 1 c-1 kfoo O1").flagUnsigned('c'))
    intercept[ProtocolDesync](reply("VALUE k 1a 0 1").tokenClientFlags(2))
    intercept[ProtocolDesync](reply("VALUE k").tokenClientFlags(2))
    intercept[ProtocolDesync](reply("18446744073709551616").tokenUnsigned(0)) // 2^64

  test("digits: up to 18 in place, anything else left to the text"):
    assertEquals(Reply.digits(k("999999999999999999"), 0, 18), 999999999999999999L)
    assertEquals(Reply.digits(k("1000000000000000000"), 0, 19), -1L)
    assertEquals(Reply.digits(k(""), 0, 0), -1L)
    assertEquals(Reply.digits(k("12a"), 0, 3), -1L)
    assertEquals(Reply.digits(k("x42y"), 1, 3), 42L)

  test("reply codes are recognised on their bytes"):
    for (code, kind) <- Seq(
        "VA" -> Reply.Kind.VA,
        "MN" -> Reply.Kind.MN,
        "VALUE" -> Reply.Kind.Value,
        "END" -> Reply.Kind.End,
        "NOT_STORED" -> Reply.Kind.NotStored,
        "SERVER_ERROR" -> Reply.Kind.ServerError,
        "0" -> Reply.Kind.Number,
        "12345678901234567890" -> Reply.Kind.Number
      )
    do assertEquals(Reply.kindOf(code), kind, code)
    for code <- Seq("", "V", "VAL", "ENDS", "STORE", "123456789012345678901", "1x") do
      assertEquals(Reply.kindOf(code), null, code)

  test("numbers are written as Long.toString writes them"):
    for v <- Seq(
        0L,
        1L,
        9L,
        10L,
        99L,
        100L,
        -1L,
        -10L,
        Int.MaxValue.toLong,
        Long.MaxValue,
        Long.MinValue,
        4294967295L
      )
    do
      val out = ByteSink(1)
      out.ascii("x").number(v)
      assertEquals(String(out.array, 0, out.size, ISO_8859_1), "x" + v.toString)
