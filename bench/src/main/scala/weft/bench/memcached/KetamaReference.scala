package weft.bench.memcached

import java.nio.charset.StandardCharsets.UTF_8
import java.security.MessageDigest

/**
 * Ketama as libketama defines it, written here apart from weft's client, to check where each
 * contender of `memcached-cluster-3` placed its keys: every node contributes 40 MD5 digests of
 * `name + "-" + i`, 4 points each (bytes `4h..4h+3` little-endian, unsigned); a key's hash is
 * the first 4 bytes of MD5(key) little-endian; its node owns the first point at or after the
 * hash, wrapping to the first point. On a shared point the later node wins (spymemcached's
 * rule; with 3 nodes and 480 points a collision is a 1-in-30,000 event).
 */
final class KetamaReference(names: Seq[String]):
  private val ring = java.util.TreeMap[java.lang.Long, String]()

  for
    name <- names
    i <- 0 until 40
  do
    val d = KetamaReference.md5(s"$name-$i")
    (0 until 4).foreach(h => ring.put(KetamaReference.le32(d, 4 * h), name))

  /** The node name owning `key`. */
  def nodeOf(key: String): String =
    val e = ring.ceilingEntry(KetamaReference.le32(KetamaReference.md5(key), 0))
    (if e == null then ring.firstEntry else e).getValue

/** MD5 and byte order. */
object KetamaReference:
  private def md5(s: String): Array[Byte] =
    MessageDigest.getInstance("MD5").digest(s.getBytes(UTF_8))

  private def le32(d: Array[Byte], at: Int): java.lang.Long =
    ((d(at + 3) & 0xffL) << 24) | ((d(at + 2) & 0xffL) << 16) | ((d(at + 1) & 0xffL) << 8) |
      (d(at) & 0xffL)
