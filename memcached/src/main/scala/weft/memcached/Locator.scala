package weft.memcached

import java.net.InetSocketAddress
import java.nio.charset.StandardCharsets.UTF_8
import java.security.MessageDigest

/**
 * The string a node is known by on the Ketama ring. It decides where every key goes: the same
 * names give the same placement as another client.
 */
enum NodeNaming:
  /**
   * spymemcached's `KetamaNodeLocator`: the resolved address as Java prints it without a
   * leading `/`: `127.0.0.1:11211`, or `localhost/127.0.0.1:11211` for a host name. On a point
   * shared by two nodes the later node in the list wins.
   */
  case Spymemcached

  /**
   * xmemcached's `KetamaMemcachedSessionLocator`: the address as Java prints it, `/` kept:
   * `/127.0.0.1:11211` or `localhost/127.0.0.1:11211`. On a shared point the nodes are sorted
   * by name and the point's hash modulo their number picks one.
   */
  case Xmemcached

  /** libmemcached: `host` when the port is 11211, `host:port` otherwise (as configured). */
  case LibmemcachedHost

  /** `host:port`, as configured. */
  case HostPort

  /** The name of a node configured as `host:port` and resolved to `address`. */
  def name(host: String, port: Int, address: InetSocketAddress): String = this match
    case Spymemcached     => address.toString.stripPrefix("/")
    case Xmemcached       => address.toString
    case LibmemcachedHost => if port == 11211 then host else s"$host:$port"
    case HostPort         => s"$host:$port"

/** How keys are placed on nodes. */
enum Locator:
  /** Ketama consistent hashing (160 points per node) with the given node names. */
  case Ketama(naming: NodeNaming)

  /** The key's hash modulo the number of nodes (moves most keys when a node is added). */
  case Modula

/**
 * A Ketama ring (the libketama algorithm that spymemcached and xmemcached implement).
 *
 * ==Algorithm==
 * A key's hash is the first four bytes of MD5(UTF-8 key), little-endian, as an unsigned 32-bit
 * number. Each node gets 160 points: for i in 0 until 40, MD5(name + "-" + i) gives four
 * little-endian 32-bit points. The key goes to the node of the first point at or above its
 * hash, wrapping around to the first point. Points are kept in one sorted array and searched by
 * bisection. `KetamaGoldenSuite` checks 10,000 keys against both Java clients' own locators.
 */
final private[memcached] class KetamaRing(names: IndexedSeq[String], naming: NodeNaming):
  private val (points, owners) =
    val map = java.util.TreeMap[java.lang.Long, List[Int]]()
    for (name, node) <- names.zipWithIndex; i <- 0 until 40 do
      val d = KetamaRing.md5(s"$name-$i".getBytes(UTF_8))
      for h <- 0 until 4 do
        val p = KetamaRing.le32(d, h * 4)
        val prev = Option(map.get(p)).getOrElse(Nil)
        map.put(p, node :: prev.filter(_ != node))
    val ps = new Array[Long](map.size)
    val os = new Array[Int](map.size)
    var j = 0
    map.forEach: (p, nodes) =>
      ps(j) = p
      os(j) = naming match
        case NodeNaming.Xmemcached =>
          val sorted = nodes.sortBy(names(_))
          sorted((p % sorted.size).toInt)
        case _ => nodes.max // the later node in the list wins
      j += 1
    (ps, os)

  /** The node index for a key hash. */
  def locate(hash: Long): Int =
    var lo = 0
    var hi = points.length
    while lo < hi do
      val mid = (lo + hi) >>> 1
      if points(mid) < hash then lo = mid + 1 else hi = mid
    owners(if lo == points.length then 0 else lo)

/** Ketama hashing. */
private[memcached] object KetamaRing:
  private val prototype = MessageDigest.getInstance("MD5")

  /** MD5 of `b`. */
  def md5(b: Array[Byte]): Array[Byte] =
    prototype.clone().asInstanceOf[MessageDigest].digest(b)

  /** The unsigned little-endian 32-bit number at `off`. */
  def le32(d: Array[Byte], off: Int): Long =
    ((d(off + 3) & 0xffL) << 24) | ((d(off + 2) & 0xffL) << 16) | ((d(off + 1) & 0xffL) << 8) |
      (d(off) & 0xffL)

  /** A key's hash: the first four bytes of its MD5, little-endian. */
  def hash(key: String): Long = le32(md5(key.getBytes(UTF_8)), 0)
