package weft.io

import java.nio.{ByteBuffer, CharBuffer}
import java.nio.channels.FileChannel
import java.nio.charset.{Charset, CharsetEncoder, CodingErrorAction}

/**
 * How [[File]] moves bytes and text through a `FileChannel`: large transfers go in chunks.
 *
 * ==Why chunks==
 * A `FileChannel` reads into (or writes from) a heap `ByteBuffer` through a temporary direct
 * buffer as large as the heap buffer's remaining bytes, which the JDK caches per carrier thread.
 * For 40 MB that is a 40 MB buffer: the kernel copies into it and Java copies out of it, and
 * neither copy fits any cache, so both run at memory speed. Transferring at most [[Chunk]]
 * bytes per call keeps that temporary buffer at 256 KiB, resident in the core's cache, so the
 * second copy costs little. Direct buffers need no temporary buffer and are never split.
 *
 * ==Text==
 * [[readString]] reads into a reused array ([[ByteArrayPool]]) sized from what is left of the
 * file (a seekable file) or grown by doubling (a pipe, or a device that reports no size), then
 * decodes it into the `String`: that copy is the only one public APIs allow. [[writeString]] encodes a long string
 * [[TextChunk]] characters at a time into a small buffer that stays in cache and writes each
 * piece, instead of encoding the whole string into a second array of its size first; a short
 * string takes `String.getBytes`, the cheapest path for it. Both paths produce the same bytes:
 * malformed or unmappable characters become the charset's replacement, as `getBytes` does.
 *
 * Every function takes a file position, or [[Relative]] to use and advance the channel's own.
 */
private[io] object FileTransfer:

  /** The most bytes moved by one channel call on a heap buffer: 256 KiB. */
  inline val Chunk = 256 * 1024

  /** The most characters encoded at a time by [[writeString]]: 64 Ki. */
  inline val TextChunk = 64 * 1024

  /** Requests at most this large are read into an array of exactly their size. */
  private inline val SmallRead = 16 * 1024

  /** The position argument meaning "at the channel's position, advancing it". */
  inline val Relative = -1L

  /**
   * Reads into `dst` as one POSIX-like read: a heap buffer larger than [[Chunk]] is filled
   * chunk by chunk until it is full or a chunk comes back short (the end of the file, or a pipe
   * with nothing more for now).
   * @return
   *   the number of bytes read, or `-1` if the first read met the end of the file
   */
  def read(c: FileChannel, dst: ByteBuffer, position: Long): Int =
    if dst.isDirect || dst.remaining <= Chunk then readOnce(c, dst, position)
    else
      var total = 0
      var eof = false
      var more = true
      while more && dst.hasRemaining do
        val k = Math.min(dst.remaining, Chunk)
        val r = readOnce(c, dst.slice(dst.position(), k), at(position, total))
        if r < 0 then
          eof = true
          more = false
        else
          dst.position(dst.position() + r)
          total += r
          more = r == k
      if eof && total == 0 then -1 else total

  /**
   * Writes all of `src`, a heap buffer larger than [[Chunk]] chunk by chunk; `src`'s position
   * follows every byte written.
   * @return
   *   the number of bytes written
   */
  def write(c: FileChannel, src: ByteBuffer, position: Long): Int =
    var total = 0
    if src.isDirect || src.remaining <= Chunk then
      while src.hasRemaining do total += writeOnce(c, src, at(position, total))
    else
      while src.hasRemaining do
        val piece = src.slice(src.position(), Math.min(src.remaining, Chunk))
        while piece.hasRemaining do
          val w = writeOnce(c, piece, at(position, total))
          src.position(src.position() + w)
          total += w
    total

  /**
   * Reads up to `size` bytes at `position` (fewer only at the end of the file) and decodes them
   * with `charset`, after the bytes of a character the previous call split ([[TextCarry]]). At a
   * position, the file's size bounds the array (a device whose size reads 0 then grows it as a
   * pipe does) and `file`'s cursor moves past the bytes read; [[Relative]] reads at the
   * channel's position, from a stream. Returns `""` only at the end of the file (or for
   * `size` 0): a piece holding nothing but part of a character reads on, a byte at a time,
   * until the character is complete, so it may read a few bytes more than `size`.
   */
  def readString(c: FileChannel, size: Int, charset: Charset, position: Long, file: File): String =
    var text = readPiece(c, size, charset, position, file)
    while text.isEmpty && size > 0 && !file.text.atEnd do
      text = readPiece(c, 1, charset, if position < 0 then Relative else file.cursor, file)
    text

  /** One read of [[readString]]: up to `size` bytes after the held ones, decoded. */
  private def readPiece(
      c: FileChannel,
      size: Int,
      charset: Charset,
      position: Long,
      file: File
  ): String =
    val held = file.text.held
    val h = held.length
    val first =
      if size <= SmallRead then size
      else if position >= 0 then Math.min(size.toLong, Math.max(0L, c.size() - position)).toInt
      else Math.min(size, Chunk)
    val want = h.toLong + size // held bytes, then up to `size` read now
    var a = ByteArrayPool.take(h + first)
    try
      System.arraycopy(held, 0, a, 0, h)
      var cap = Math.min(a.length.toLong, want).toInt
      var n = h
      var eof = false
      while !eof && n < want do
        if n < cap then
          val r = readOnce(c, ByteBuffer.wrap(a, n, Math.min(cap - n, Chunk)), at(position, n - h))
          if r < 0 then eof = true else n += r
        else
          // Full before `size`: a file that grew, or a pipe. Probe one byte before growing.
          val one = ByteBuffer.allocate(1)
          if readOnce(c, one, at(position, n - h)) < 0 then eof = true
          else
            val bigger = ByteArrayPool.take(Math.min(want, 2L * cap + Chunk).toInt)
            System.arraycopy(a, 0, bigger, 0, n)
            ByteArrayPool.give(a)
            a = bigger
            cap = Math.min(a.length.toLong, want).toInt
            a(n) = one.get(0)
            n += 1
      if position >= 0 then file.cursor = position + (n - h)
      file.text.decode(a, n, charset, eof)
    finally ByteArrayPool.give(a)

  /**
   * Encodes `s` with `charset` (replacing what it cannot encode, as `String.getBytes` does) and
   * writes it all at `position` (or the channel's, if [[Relative]]).
   * @return
   *   the number of bytes written
   */
  def writeString(c: FileChannel, s: String, charset: Charset, position: Long): Int =
    if s.length <= TextChunk then write(c, ByteBuffer.wrap(s.getBytes(charset)), position)
    else
      val enc = charset
        .newEncoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE)
      val chars = new Array[Char](TextChunk)
      val in = CharBuffer.wrap(chars)
      val out = ByteBuffer.allocate(Math.ceil(TextChunk * enc.maxBytesPerChar.toDouble).toInt)
      val len = s.length
      var total = 0
      var i = 0
      while i < len do
        var j = Math.min(i + TextChunk, len)
        // never split a surrogate pair between two pieces
        if j < len && Character.isHighSurrogate(s.charAt(j - 1)) then j -= 1
        s.getChars(i, j, chars, 0)
        in.limit(j - i).position(0)
        total += encodeAndWrite(c, enc, in, out, j == len, at(position, total))
        i = j
      total

  /**
   * Encodes all of `in` into `out`, writing `out` (at `position`, or [[Relative]]) whenever it is
   * full and at the end.
   */
  private def encodeAndWrite(
      c: FileChannel,
      enc: CharsetEncoder,
      in: CharBuffer,
      out: ByteBuffer,
      last: Boolean,
      position: Long
  ): Int =
    var total = 0
    while enc.encode(in, out, last).isOverflow do total += drain(c, out, at(position, total))
    if last then
      while enc.flush(out).isOverflow do total += drain(c, out, at(position, total))
    total + drain(c, out, at(position, total))

  /** Writes what `out` holds (at `position`, or [[Relative]]) and clears it. */
  private def drain(c: FileChannel, out: ByteBuffer, position: Long): Int =
    out.flip()
    var total = 0
    while out.hasRemaining do total += writeOnce(c, out, at(position, total))
    out.clear()
    total

  /** `done` bytes past `position`, or [[Relative]]. */
  private inline def at(position: Long, done: Int): Long =
    if position < 0 then Relative else position + done

  private def readOnce(c: FileChannel, dst: ByteBuffer, position: Long): Int =
    if position < 0 then c.read(dst) else c.read(dst, position)

  private def writeOnce(c: FileChannel, src: ByteBuffer, position: Long): Int =
    if position < 0 then c.write(src) else c.write(src, position)
