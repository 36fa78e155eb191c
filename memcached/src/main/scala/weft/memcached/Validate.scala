package weft.memcached

import java.nio.charset.StandardCharsets.UTF_8
import java.util.Base64
import scala.concurrent.duration.FiniteDuration

/**
 * Checks every key and numeric field before a request is built, so that nothing invalid is ever
 * written to a connection.
 *
 * This is a correctness rule, not politeness: after a bad storage line (a key over 250 bytes, a
 * non-numeric field) the memcached 1.6 series answers `CLIENT_ERROR` but then reads the value
 * block as a command and answers it too, so every later reply on the connection belongs to the
 * wrong request. `ValidateSuite` checks the rules, and its property test checks that no invalid
 * key or field reaches the socket.
 */
private[memcached] object Validate:

  /** The longest key the server accepts, in bytes as sent. */
  val MaxKeyBytes = 250

  /** The longest raw key in base64 mode: 186 bytes encode to 248. */
  val MaxBinaryKeyBytes = 186

  /** TTLs above 30 days are sent as an absolute Unix time (the server's rule). */
  val RelativeTtlLimitSeconds: Long = 30L * 24 * 3600

  /**
   * The key as written on the wire: its UTF-8 bytes, or in base64 mode (`binary`) the base64 of
   * them (sent with the meta `b` flag).
   * @throws InvalidKey
   *   if null, empty, too long, not valid UTF-16 (a lone surrogate), or (text mode) holding a
   *   byte <= 0x20 or 0x7F
   */
  def key(key: String, binary: Boolean): Array[Byte] =
    if key == null then throw InvalidKey("the key is null")
    // `getBytes` would replace a lone surrogate by '?' without a word, so "k\uD800" would be
    // sent as "k?" and read or overwrite that other key (RefusedCallsSuite's regression test)
    val bad = loneSurrogate(key)
    if bad >= 0 then
      throw InvalidKey(
        f"a key must be valid UTF-16, found a lone surrogate 0x${key.charAt(bad).toInt}%04x at " +
          s"index $bad"
      )
    val raw = key.getBytes(UTF_8)
    if raw.isEmpty then throw InvalidKey("the key is empty")
    if binary then
      if raw.length > MaxBinaryKeyBytes then
        throw InvalidKey(s"a binary key has at most $MaxBinaryKeyBytes bytes, got ${raw.length}")
      Base64.getEncoder.encode(raw)
    else
      if raw.length > MaxKeyBytes then
        throw InvalidKey(s"a key has at most $MaxKeyBytes bytes, got ${raw.length}")
      var i = 0
      while i < raw.length do
        val b = raw(i) & 0xff
        if b <= 0x20 || b == 0x7f then
          throw InvalidKey(
            f"a key may not contain whitespace or control bytes, found 0x$b%02x at byte $i of " +
              s"\"${printable(key)}\""
          )
        i += 1
      raw

  /**
   * The TTL field: 0 for no expiry, whole seconds (rounded up) up to 30 days, an absolute Unix
   * time above that. `name` names the parameter in messages (`ttl`, `delay`).
   * @throws InvalidArgument
   *   if null, negative, or if the absolute time does not fit the server's 32-bit field
   */
  def ttl(ttl: FiniteDuration, nowSeconds: => Long, name: String = "ttl"): Long =
    if ttl == null then throw InvalidArgument(s"the $name is null")
    if ttl.length < 0 then throw InvalidArgument(s"a $name must be >= 0, got $ttl")
    val nanos = ttl.toNanos
    if nanos == 0 then 0L
    else
      // rounded up without adding to `nanos`: near Long.MaxValue the sum would wrap to a
      // negative TTL that passes the 30-day test (RefusedCallsSuite's regression test)
      val seconds = nanos / 1_000_000_000L + (if nanos % 1_000_000_000L != 0 then 1 else 0)
      if seconds <= RelativeTtlLimitSeconds then seconds
      else
        val absolute = nowSeconds + seconds
        if absolute > Int.MaxValue then
          throw InvalidArgument(s"a $name of $ttl ends after the server's last time (2038)")
        absolute

  /** An increment or decrement, or an initial counter value: at least zero. */
  def counter(name: String, value: Long): Long =
    if value < 0 then throw InvalidArgument(s"the $name must be >= 0, got $value")
    value

  /** A value of at most `limit` bytes. */
  def value(value: Array[Byte], limit: Int): Array[Byte] =
    notNull(value, "value")
    if value.length > limit then
      throw ValueTooLarge(
        s"a value has at most $limit bytes (the client's limit), got ${value.length}"
      )
    value

  /** A call's deadline (or the duration setting `name`): positive, in nanoseconds. */
  def deadline(d: FiniteDuration, name: String = "deadline"): Long =
    if d == null then throw InvalidArgument(s"the $name is null")
    if d.length <= 0 then throw InvalidArgument(s"a $name must be > 0, got $d")
    d.toNanos

  /** `v`, unless it is null: then [[InvalidArgument]] naming the parameter `name`. */
  def notNull[T](v: T, name: String): T =
    if v == null then throw InvalidArgument(s"the $name is null")
    v

  /** The index of the first surrogate in `s` that is not half of a pair, or -1. */
  def loneSurrogate(s: String): Int =
    var i = 0
    val n = s.length
    var bad = -1
    while bad < 0 && i < n do
      val c = s.charAt(i)
      if !Character.isSurrogate(c) then i += 1
      else if Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))
      then i += 2
      else bad = i
    bad

  /** `s` with control characters escaped, cut to 80 characters, for messages. */
  def printable(s: String): String =
    val b = StringBuilder()
    s.take(80).foreach: c =>
      if c < 0x20 || c == 0x7f then b.append(f"\\x${c.toInt}%02x") else b.append(c)
    if s.length > 80 then b.append("...")
    b.toString
