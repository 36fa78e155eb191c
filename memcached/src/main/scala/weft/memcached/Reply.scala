package weft.memcached

import java.nio.charset.StandardCharsets.ISO_8859_1

/**
 * One reply read from a server: its line (without `"\r\n"`) and, for `VA` and `VALUE`, the data
 * block. Tokens are the line's space-separated words (`token 0` is the code).
 *
 * The wires read a reply on its bytes: the opaque and the numbers are parsed from the line in
 * place and a key is compared byte for byte, so a hit costs no `String` (the `memcached-setget`
 * allocation profile in docs/perf/memcached.md). [[tokens]] makes the strings, for the rare
 * replies that need text (a version, stats, an error's message).
 */
final private[memcached] class Reply(
    val kind: Reply.Kind,
    line: Array[Byte],
    val data: Array[Byte] | Null
):

  /** The line split on spaces, as `String.split(' ')` would (made on first use). */
  lazy val tokens: Array[String] =
    val s = String(line, ISO_8859_1)
    if s.isEmpty then Array("") else s.split(' ')

  /** The start of token `i` in the line, or -1 if there are fewer tokens. */
  private def tokenStart(i: Int): Int =
    var pos = 0
    var t = 0
    while t < i && pos >= 0 do
      val sp = indexOfSpace(pos)
      pos = if sp < 0 then -1 else sp + 1
      t += 1
    if pos >= 0 && pos < line.length then pos else -1

  private def indexOfSpace(from: Int): Int =
    var i = from
    while i < line.length && line(i) != ' ' do i += 1
    if i < line.length then i else -1

  private def endOf(start: Int): Int =
    val sp = indexOfSpace(start)
    if sp < 0 then line.length else sp

  /** Index of the first meta flag token: after the size for `VA`, after the code otherwise. */
  private def firstFlag: Int = if kind == Reply.Kind.VA then 2 else 1

  /** Where the token of meta return flag `c` starts (at its letter), or -1 if absent. */
  private def flagAt(c: Char): Int =
    var pos = tokenStart(firstFlag)
    while pos >= 0 do
      if pos < line.length && line(pos) == c then return pos
      val sp = indexOfSpace(pos)
      pos = if sp < 0 then -1 else sp + 1
    -1

  /** The token of meta return flag `c` (without the letter), or `null` if absent. */
  def flag(c: Char): String | Null =
    val at = flagAt(c)
    if at < 0 then null else String(line, at + 1, endOf(at) - at - 1, ISO_8859_1)

  /** Whether the meta flag `c` is present. */
  def hasFlag(c: Char): Boolean = flagAt(c) >= 0

  /** Whether meta flag `c` is present and its token (after the letter) is `expected`. */
  def flagIs(c: Char, expected: Array[Byte]): Boolean =
    val at = flagAt(c)
    at >= 0 && sameBytes(at + 1, endOf(at), expected)

  /** Whether token `i` is `expected`. */
  def tokenIs(i: Int, expected: Array[Byte]): Boolean =
    val at = tokenStart(i)
    at >= 0 && sameBytes(at, endOf(at), expected)

  private def sameBytes(from: Int, to: Int, expected: Array[Byte]): Boolean =
    java.util.Arrays.equals(line, from, to, expected, 0, expected.length)

  /** The opaque token (`O` flag) as a number, or -1 if absent or not a number. */
  def opaque: Long =
    val at = flagAt('O')
    if at < 0 then -1L
    else
      val v = Reply.digits(line, at + 1, endOf(at))
      if v >= 0 then v
      else
        try java.lang.Long.parseLong(String(line, at + 1, endOf(at) - at - 1, ISO_8859_1))
        catch case _: NumberFormatException => -1L

  /** The client flags of meta flag `c` (0 if absent), as 32 bits. */
  def flagClientFlags(c: Char): Int =
    val at = flagAt(c)
    if at < 0 then 0 else Reply.clientFlags(line, at + 1, endOf(at))

  /** The unsigned 64-bit number of meta flag `c` (a CAS token), 0 if absent. */
  def flagUnsigned(c: Char): Long =
    val at = flagAt(c)
    if at < 0 then 0L else Reply.unsigned(line, at + 1, endOf(at))

  /** The client flags in token `i`, as 32 bits. */
  def tokenClientFlags(i: Int): Int =
    val at = tokenStart(i)
    if at < 0 then throw ProtocolDesync(s"no client flags in \"$this\"")
    Reply.clientFlags(line, at, endOf(at))

  /** The unsigned 64-bit number in token `i` (a CAS token, a counter); 0 if absent. */
  def tokenUnsigned(i: Int): Long =
    val at = tokenStart(i)
    if at < 0 then 0L else Reply.unsigned(line, at, endOf(at))

  /** The number of tokens. */
  def tokenCount: Int = tokens.length

  /** Whether this is `ERROR`, `CLIENT_ERROR` or `SERVER_ERROR`. */
  def isError: Boolean =
    kind == Reply.Kind.Error || kind == Reply.Kind.ClientError || kind == Reply.Kind.ServerError

  /** The text after the code (an error's message, a version). */
  def rest: String = tokens.drop(1).mkString(" ")

  /** The typed error of an error reply. */
  def toError: MemcachedException = kind match
    case Reply.Kind.ServerError => ServerError(s"SERVER_ERROR $rest")
    case Reply.Kind.ClientError => ClientError(s"CLIENT_ERROR $rest")
    case _                      => ClientError("ERROR (the server does not know the command)")

  override def toString: String =
    val d = if data == null then "" else s" +${data.nn.length} bytes"
    Validate.printable(String(line, ISO_8859_1)) + d

/** Reply kinds, and the numbers read from reply bytes. */
private[memcached] object Reply:

  /** What a reply line starts with. */
  enum Kind:
    case VA, HD, EN, NS, EX, NF, MN
    case Value, End, Stored, NotStored, Exists, NotFound, Deleted, Touched, Ok, Version, Stat
    case Number, Error, ClientError, ServerError

  private val codes: Array[(Array[Byte], Kind)] = Array(
    "VA" -> Kind.VA,
    "HD" -> Kind.HD,
    "EN" -> Kind.EN,
    "NS" -> Kind.NS,
    "EX" -> Kind.EX,
    "NF" -> Kind.NF,
    "MN" -> Kind.MN,
    "VALUE" -> Kind.Value,
    "END" -> Kind.End,
    "STORED" -> Kind.Stored,
    "NOT_STORED" -> Kind.NotStored,
    "EXISTS" -> Kind.Exists,
    "NOT_FOUND" -> Kind.NotFound,
    "DELETED" -> Kind.Deleted,
    "TOUCHED" -> Kind.Touched,
    "OK" -> Kind.Ok,
    "VERSION" -> Kind.Version,
    "STAT" -> Kind.Stat,
    "ERROR" -> Kind.Error,
    "CLIENT_ERROR" -> Kind.ClientError,
    "SERVER_ERROR" -> Kind.ServerError
  ).map((code, kind) => (code.getBytes(ISO_8859_1), kind))

  /** The kind of the reply code `b(from until to)`, or `null` for an unknown one. */
  def kindOf(b: Array[Byte], from: Int, to: Int): Kind | Null =
    var i = 0
    while i < codes.length do
      val (code, kind) = codes(i)
      if java.util.Arrays.equals(b, from, to, code, 0, code.length) then return kind
      i += 1
    val len = to - from
    var digits = len > 0 && len <= 20
    var j = from
    while digits && j < to do
      digits = b(j) >= '0' && b(j) <= '9'
      j += 1
    if digits then Kind.Number else null

  /** The kind of a reply code, or `null` for an unknown one. */
  def kindOf(code: String): Kind | Null =
    val b = code.getBytes(ISO_8859_1)
    kindOf(b, 0, b.length)

  /**
   * The decimal number `b(from until to)` of at most 18 digits (it cannot overflow), or -1 when
   * it is longer, empty or not all digits: the callers then parse the text, which decides.
   */
  def digits(b: Array[Byte], from: Int, to: Int): Long =
    if to <= from || to - from > 18 then -1L
    else
      var v = 0L
      var i = from
      while i < to do
        val d = b(i) - '0'
        if d < 0 || d > 9 then return -1L
        v = v * 10 + d
        i += 1
      v

  /** Client flags: a decimal number read as 32 bits (a `Long` cut to `Int`, as the server). */
  def clientFlags(b: Array[Byte], from: Int, to: Int): Int =
    val v = digits(b, from, to)
    if v >= 0 then v.toInt
    else
      val s = String(b, from, to - from, ISO_8859_1)
      try java.lang.Long.parseLong(s).toInt
      catch case _: NumberFormatException => throw ProtocolDesync(s"bad client flags \"$s\"")

  /** An unsigned 64-bit decimal number (a CAS token, a counter). */
  def unsigned(b: Array[Byte], from: Int, to: Int): Long =
    val v = digits(b, from, to)
    if v >= 0 then v
    else
      val s = String(b, from, to - from, ISO_8859_1)
      try java.lang.Long.parseUnsignedLong(s)
      catch case _: NumberFormatException => throw ProtocolDesync(s"bad number \"$s\"")
