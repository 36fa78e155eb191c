package weft.memcached

/**
 * A growable byte array that requests are encoded into; the writer fiber sends it whole, so a
 * batch of requests costs one write. Only ASCII is ever appended as text (commands, numbers and
 * validated keys), so characters are stored as single bytes without a charset.
 */
final private[memcached] class ByteSink(initial: Int):
  private var buf = new Array[Byte](initial)
  private var n = 0

  /** The bytes written so far are `array(0 until size)`. */
  def array: Array[Byte] = buf

  /** The number of bytes written. */
  def size: Int = n

  /** Forgets the content; a buffer grown past 1 MiB (a large value) is given back. */
  def reset(): Unit =
    n = 0
    if buf.length > (1 << 20) then buf = new Array[Byte](initial)

  /** Appends one byte. */
  def byte(b: Int): ByteSink =
    ensure(1)
    buf(n) = b.toByte
    n += 1
    this

  /** Appends ASCII text. */
  def ascii(s: String): ByteSink =
    ensure(s.length)
    var i = 0
    while i < s.length do
      buf(n + i) = s.charAt(i).toByte
      i += 1
    n += s.length
    this

  /** Appends bytes. */
  def bytes(a: Array[Byte]): ByteSink =
    ensure(a.length)
    System.arraycopy(a, 0, buf, n, a.length)
    n += a.length
    this

  /**
   * Appends a decimal number. Written digit by digit into the buffer: `Long.toString` made a
   * string per number, several per request (the `memcached-setget` allocation profile).
   */
  def number(v: Long): ByteSink =
    if v < 0 then
      if v == Long.MinValue then ascii(java.lang.Long.toString(v))
      else byte('-').number(-v)
    else
      var digits = 1
      var rest = v / 10
      while rest > 0 do
        digits += 1
        rest /= 10
      ensure(digits)
      var x = v
      var i = n + digits - 1
      while i >= n do
        buf(i) = ('0' + (x % 10)).toByte
        x /= 10
        i -= 1
      n += digits
      this

  /** Appends a space and a meta flag with its token, e.g. `" T60"`. */
  def flag(c: Char, v: Long): ByteSink = byte(' ').byte(c).number(v)

  /** Appends `"\r\n"`. */
  def crlf(): ByteSink = byte('\r').byte('\n')

  private def ensure(more: Int): Unit =
    if n + more > buf.length then
      val size = math.max(buf.length.toLong * 2, n.toLong + more).min(Int.MaxValue - 8).toInt
      buf = java.util.Arrays.copyOf(buf, size)
