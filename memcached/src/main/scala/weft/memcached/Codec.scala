package weft.memcached

import java.nio.charset.StandardCharsets.UTF_8

/**
 * How values of type `T` are stored: bytes plus the 32-bit client flags. `client.put(key, v)`
 * and `client.fetch[T](key)` find the codec as a `given`; `String` (UTF-8) and `Array[Byte]`
 * have one.
 *
 * There is no default Java serialisation: a codec writes bytes the application chose.
 * {{{
 * given Codec[Long] with
 *   def encode(value: Long) = (value.toString.getBytes(UTF_8), 0)
 *   def decode(hit: Hit) = hit.string.toLong
 *
 * client.put("visits", 42L)
 * client.fetch[Long]("visits") // Some(42)
 * }}}
 */
trait Codec[T]:

  /** The bytes and flags to store for `value`. */
  def encode(value: T): (Array[Byte], Int)

  /** The value read back from a hit. */
  def decode(hit: Hit): T

/** Standard codecs. */
object Codec:

  /**
   * Strings as UTF-8 with flags 0: what spymemcached's and xmemcached's default transcoders
   * write for a `String`, so items are shared with services that use them.
   */
  given utf8: Codec[String] with
    def encode(value: String): (Array[Byte], Int) = (value.getBytes(UTF_8), 0)
    def decode(hit: Hit): String = hit.string

  /** Raw bytes with flags 0. */
  given bytes: Codec[Array[Byte]] with
    def encode(value: Array[Byte]): (Array[Byte], Int) = (value, 0)
    def decode(hit: Hit): Array[Byte] = hit.value
