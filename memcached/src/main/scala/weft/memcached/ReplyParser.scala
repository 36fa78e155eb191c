package weft.memcached

import java.nio.charset.StandardCharsets.ISO_8859_1

/**
 * An incremental parser of memcached replies (meta and classic text): bytes go in by [[feed]]
 * in pieces of any size, whole replies come out of [[next]].
 *
 * ==Algorithm==
 * Two states. In the line state the parser looks for `"\n"` in the unread bytes (resuming where
 * the last search stopped), checks the `"\r"` before it, matches the code on the line's bytes and keeps a copy of the line. A `VA
 * <size>` or `VALUE <key> <flags> <size>` line switches to the data state: exactly `size` bytes
 * are copied into the value's own array as they arrive, then `"\r\n"` must follow. Data blocks
 * are read by their length, never searched, so a value may hold any bytes.
 *
 * Anything else is a [[ProtocolDesync]]: an unknown reply code, a line without `"\r"`, a line
 * longer than `maxLine` without an end, a size that is not a number or is larger than
 * `maxData`, a data block not followed by `"\r\n"`. After an error the parser is unusable (the
 * connection is closed). `ReplyParserSuite` feeds replies split at every offset and garbage.
 */
final private[memcached] class ReplyParser(maxLine: Int, maxData: Int):
  private var buf = new Array[Byte](16 * 1024)
  private var start = 0 // first unread byte
  private var end = 0 // one past the last byte fed
  private var scanned = 0 // bytes after `start` already searched for '\n'
  private var header: Array[Byte] | Null = null // a VA/VALUE line awaiting its data
  private var kind: Reply.Kind | Null = null
  private var data: Array[Byte] | Null = null
  private var filled = 0

  /** Appends `len` bytes of `src` from `off`. */
  def feed(src: Array[Byte], off: Int, len: Int): Unit =
    room(len)
    System.arraycopy(src, off, buf, end, len)
    end += len

  /**
   * Reads from `ch` once, into the parser's own buffer, or straight into the value being filled
   * when nothing else is buffered and much of it is missing: the connection's reads land where
   * they are parsed, so a value's bytes are copied once from the read into their array, not
   * first into a read buffer and then here. Returns the bytes read, or -1 at end of stream.
   */
  def readFrom(ch: java.nio.channels.ReadableByteChannel): Int =
    val d = data
    if d != null && start == end && d.length - filled >= ReplyParser.DirectRead then
      val n = ch.read(java.nio.ByteBuffer.wrap(d, filled, d.length - filled))
      if n > 0 then filled += n
      n
    else
      room(ReplyParser.MinRead)
      val n = ch.read(java.nio.ByteBuffer.wrap(buf, end, buf.length - end))
      if n > 0 then end += n
      n

  /** Makes room for `len` more bytes after `end`: moves the unread bytes to the front, then grows. */
  private def room(len: Int): Unit =
    if end + len > buf.length then
      System.arraycopy(buf, start, buf, 0, end - start)
      end -= start
      start = 0
      if end + len > buf.length then
        buf = java.util.Arrays.copyOf(buf, math.max(buf.length * 2, end + len))

  /** The number of bytes fed and not yet consumed by a reply (for tests). */
  def buffered: Int = end - start + filled

  /**
   * The next whole reply, or `null` if more bytes are needed.
   * @throws ProtocolDesync
   *   if the bytes are not a valid reply
   */
  def next(): Reply | Null =
    if header != null then readData()
    else
      val nl = findNewline()
      if nl < 0 then
        if end - start > maxLine + 1 then
          throw desync(s"no line end within $maxLine bytes")
        null
      else
        if nl == start || buf(nl - 1) != '\r' then
          throw desync(s"a reply line not ended by \\r\\n: \"${preview(start, nl)}\"")
        val from = start
        start = nl + 1
        scanned = 0
        parseLine(from, nl - 1)

  private def parseLine(from: Int, to: Int): Reply | Null =
    // the code is matched and the size parsed on the bytes: no String on the hot path
    var codeEnd = from
    while codeEnd < to && buf(codeEnd) != ' ' do codeEnd += 1
    def line = String(buf, from, to - from, ISO_8859_1)
    if codeEnd == from then throw desync(s"a blank reply line \"${Validate.printable(line)}\"")
    val k = Reply.kindOf(buf, from, codeEnd)
    if k == null then throw desync(s"unknown reply \"${Validate.printable(line)}\"")
    val bytes = java.util.Arrays.copyOfRange(buf, from, to)
    k match
      case Reply.Kind.VA    => startData(k, bytes, 1)
      case Reply.Kind.Value => startData(k, bytes, 3)
      case _                => Reply(k, bytes, null)

  private def startData(k: Reply.Kind, line: Array[Byte], sizeAt: Int): Reply | Null =
    // token `sizeAt` of the line, as String.split(' ') counts them
    var at = 0
    var t = 0
    while t < sizeAt && at <= line.length do
      while at < line.length && line(at) != ' ' do at += 1
      at += 1
      t += 1
    var stop = at
    while stop < line.length && line(stop) != ' ' do stop += 1
    def text = String(line, ISO_8859_1)
    if at >= line.length then throw desync(s"no size in \"${Validate.printable(text)}\"")
    val size = Reply.digits(line, at, stop)
    if size < 0 || size > maxData then
      val token = String(line, at, stop - at, ISO_8859_1)
      throw desync(s"bad data size \"${Validate.printable(token)}\" (limit $maxData)")
    header = line
    kind = k
    data = new Array[Byte](size.toInt)
    filled = 0
    readData()

  private def readData(): Reply | Null =
    val d = data.nn
    val n = math.min(d.length - filled, end - start)
    System.arraycopy(buf, start, d, filled, n)
    start += n
    filled += n
    if filled < d.length || end - start < 2 then null
    else if buf(start) != '\r' || buf(start + 1) != '\n' then
      throw desync(s"a data block of ${d.length} bytes not followed by \\r\\n")
    else
      start += 2
      val r = Reply(kind.nn, header.nn, d)
      header = null
      kind = null
      data = null
      filled = 0
      r

  private def findNewline(): Int =
    var i = start + scanned
    while i < end do
      if buf(i) == '\n' then return i
      i += 1
    scanned = end - start
    -1

  private def preview(from: Int, to: Int): String =
    Validate.printable(String(buf, from, math.min(to - from, 80), ISO_8859_1))

  private def desync(msg: String) = ProtocolDesync(s"reply stream: $msg")

/** Read sizes. */
private[memcached] object ReplyParser:

  /** The least free space a read into the buffer is given (it is compacted or grown first). */
  val MinRead: Int = 4096

  /** A value missing at least this many bytes is read straight into its array. */
  val DirectRead: Int = 4096
