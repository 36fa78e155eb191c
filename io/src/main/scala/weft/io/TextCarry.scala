package weft.io

import java.nio.{ByteBuffer, CharBuffer}
import java.nio.charset.{Charset, CharsetDecoder, CodingErrorAction, StandardCharsets}

/**
 * The decoding state that [[File.readString]] keeps between calls, so that text read in pieces
 * decodes exactly as the whole file would.
 *
 * ==Why==
 * `readString(n)` reads up to `n` bytes, and `n` bytes rarely end on a character boundary: a
 * UTF-8 character of two to four bytes may be split between two calls. Decoding each piece on
 * its own turns both halves into U+FFFD. So the bytes of a trailing character that is not
 * complete yet are held here and put in front of the next call's bytes; at the end of the file
 * they are decoded as they are (so an incomplete last character becomes U+FFFD, as it does when
 * the whole file is decoded at once).
 *
 * ==How==
 * UTF-8, the common case, is stateless and self-synchronising: the end of the last complete
 * character is found by looking at most four bytes back ([[Utf8.completeEnd]]), and the
 * complete prefix goes through `String`'s own decoder, the fastest there is. ISO-8859-1 and
 * US-ASCII have one byte per character and never split. Any other charset may keep state
 * between characters (a byte-order mark, shift sequences), so it is decoded by one
 * `CharsetDecoder` per file, kept from call to call: what it leaves unread is held.
 *
 * A call that would return an empty string only because it holds part of a character reads on
 * (see [[FileTransfer.readString]]), so `""` keeps meaning the end of the file.
 *
 * Plain fields: successive relative reads are ordered by their futures (the next starts after
 * the previous completed), which orders these writes and reads too.
 */
final private[io] class TextCarry:

  /** Bytes of a character split by the previous read, to decode before the next read's. */
  var held: Array[Byte] = TextCarry.NoBytes

  /** Whether the last piece decoded met the end of the file. */
  var atEnd: Boolean = false

  private var decoder: CharsetDecoder | Null = null

  /** Forgets the held bytes and the decoder's state (a file just opened). */
  def reset(): Unit =
    held = TextCarry.NoBytes
    atEnd = false
    decoder = null

  /**
   * Decodes `a(0 until n)` (the held bytes first, then those just read) with `charset`; holds
   * the bytes of an incomplete trailing character for the next call unless `eof`.
   */
  def decode(a: Array[Byte], n: Int, charset: Charset, eof: Boolean): String =
    atEnd = eof
    if charset == StandardCharsets.UTF_8 then
      val end = if eof then n else Utf8.completeEnd(a, n)
      hold(a, end, n)
      String(a, 0, end, charset)
    else if charset == StandardCharsets.ISO_8859_1 || charset == StandardCharsets.US_ASCII then
      held = TextCarry.NoBytes
      String(a, 0, n, charset)
    else decodeWithState(a, n, charset, eof)

  /** The general case: this file's decoder, whose state carries over to the next call. */
  private def decodeWithState(a: Array[Byte], n: Int, charset: Charset, eof: Boolean): String =
    var d = decoder
    if d == null || d.nn.charset != charset then
      d = charset
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE)
      decoder = d
    val dec = d.nn
    val in = ByteBuffer.wrap(a, 0, n)
    val estimate = Math.min(Int.MaxValue - 16L, (n * dec.maxCharsPerByte.toDouble).toLong + 16L)
    var out = CharBuffer.allocate(estimate.toInt)
    def grow(): Unit =
      val bigger = CharBuffer.allocate(Math.min(Int.MaxValue - 16L, 2L * out.capacity).toInt)
      out.flip()
      bigger.put(out)
      out = bigger
    while dec.decode(in, out, eof).isOverflow do grow()
    if eof then
      while dec.flush(out).isOverflow do grow()
      dec.reset()
    hold(a, in.position, n)
    out.flip().toString

  private def hold(a: Array[Byte], from: Int, n: Int): Unit =
    held = if from == n then TextCarry.NoBytes else java.util.Arrays.copyOfRange(a, from, n)

private[io] object TextCarry:
  /** No held bytes. */
  val NoBytes: Array[Byte] = new Array[Byte](0)

/** UTF-8 character boundaries. */
private[io] object Utf8:

  /**
   * The end of the last complete character of `a(0 until n)`: `n`, or the start of a trailing
   * character whose lead byte announces more bytes than follow it. Looks back over at most three
   * continuation bytes (`10xxxxxx`); bytes that are not valid UTF-8 count as complete (they
   * decode to U+FFFD either way).
   */
  def completeEnd(a: Array[Byte], n: Int): Int =
    var i = n - 1
    val stop = Math.max(0, n - 4)
    while i > stop && (a(i) & 0xc0) == 0x80 do i -= 1
    if i < 0 then n
    else
      val b = a(i) & 0xff
      val length =
        if b >= 0xc2 && b <= 0xdf then 2
        else if b >= 0xe0 && b <= 0xef then 3
        else if b >= 0xf0 && b <= 0xf4 then 4
        else 1
      if n - i < length then i else n
