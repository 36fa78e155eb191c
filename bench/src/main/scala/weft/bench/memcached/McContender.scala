package weft.bench.memcached

/**
 * One memcached client as the benchmarks drive it. Every operation verifies its own work and
 * throws [[IllegalStateException]] on a wrong value, a miss or a failed store, so a contender
 * that skips work fails its benchmark instead of scoring.
 */
trait McContender:

  /** Stores `value` under `key` (TTL [[McContender.TtlSeconds]]) and waits for the reply. */
  def set(key: String, value: String): Unit

  /**
   * One op of `memcached-setget`: for each `i`, set `keys(i)` to `values(i)` then get it, as
   * the client's users would issue it; returns when all replies are in and checked.
   */
  def setGet(keys: Array[String], values: Array[String]): Unit

  /** One blocking get of `key`: its value, or null on a miss (the open-loop harness). */
  def get(key: String): String

  /** One multiget of `keys`; checks that every key hit with its preloaded value. */
  def multiGet(keys: KeySet): Unit

  /** Closes the client (its connection and threads). */
  def close(): Unit

/** Settings shared by every contender. */
object McContender:

  /** The TTL of every stored item (the seed's 7200 s). */
  val TtlSeconds: Int = 7200

  /** Every client's per-call timeout: long enough never to fire; a call that times out fails. */
  val TimeoutMillis: Long = 60_000L

  /** The preloaded value of `key` (the seed's `key + "value"`). */
  def valueOf(key: String): String = key + "value"

  /** Throws unless `actual` is `expected`, naming the key. */
  def check(key: String, expected: String, actual: Any): Unit =
    if actual != expected then
      throw IllegalStateException(s"read back $actual for $key, expected $expected")

  /** The contender behind a benchmark method name, connected to `address`. */
  def open(name: String, address: String): McContender =
    val (host, port) = (address.takeWhile(_ != ':'), address.dropWhile(_ != ':').drop(1).toInt)
    name match
      case "weft" | "weftInScope" => WeftContender(address, classic = false)
      case "weftClassic"          => WeftContender(address, classic = true)
      case "spyAscii"             => SpyContender(address, binary = false)
      case "spyBinary"            => SpyContender(address, binary = true)
      case "xmemAscii"            => XmemContender(host, port, binary = false, mergeGets = true)
      case "xmemBinary"           => XmemContender(host, port, binary = true, mergeGets = true)
      case "xmemAsciiUnmerged"    => XmemContender(host, port, binary = false, mergeGets = false)
      case "xmemBinaryUnmerged"   => XmemContender(host, port, binary = true, mergeGets = false)
      case "folsomAscii"       => FolsomContender(host, port, binary = false, serialising = false)
      case "folsomBinary"      => FolsomContender(host, port, binary = true, serialising = false)
      case "folsomSerialAscii" => FolsomContender(host, port, binary = false, serialising = true)
      case other               => throw IllegalArgumentException(s"unknown contender $other")

/**
 * 50 distinct keys, drawn once before measuring, as a Scala and a Java collection (each
 * client gets the one its API takes, so no conversion is timed).
 */
final class KeySet(val keys: IndexedSeq[String]):
  /** The same keys for the Java clients. */
  val javaList: java.util.List[String] =
    java.util.List.copyOf(scala.jdk.CollectionConverters.SeqHasAsJava(keys).asJava)
