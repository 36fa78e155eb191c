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
   * One op of `memcached-setget` (and of the value-size sweep, with one key): for each `i`, set
   * `keys(i)` to `values(i)` then get it; returns when all replies are in and checked. A client
   * with asynchronous calls sends every request before waiting for any reply (the seed's "set
   * followed by a get in async mode where possible"), a blocking one makes its calls in turn.
   */
  def setGet(keys: Array[String], values: Array[String]): Unit

  /** One blocking get of `key`: its value, or null on a miss (the open-loop harness). */
  def get(key: String): String

  /** One multiget of `keys`; checks that every key hit with its preloaded value. */
  def multiGet(keys: KeySet): Unit

  /**
   * Runs `body` with the client's asynchronous get (the open-loop harness's asynchronous rows):
   * the function `body` receives sends a get of its key and returns at once; the client calls
   * `done` once, on a thread of its own choosing, with the value (null on a miss) and a null
   * failure, or a null value and the failure. `body` must wait for every `done` before it
   * returns. A session rather than a single method because weft's pipelined calls need the
   * caller's scope (`using Async`): weft enters one scope around `body`, as its users would
   * around a loop of calls. A client without an asynchronous get (xmemcached) keeps this
   * default, which refuses.
   */
  def asyncGets[A](body: McContender.AsyncGet => A): A =
    throw UnsupportedOperationException(s"${getClass.getSimpleName} has no asynchronous get")

  /** Closes the client (its connection and threads). */
  def close(): Unit

/** Settings shared by every contender. */
object McContender:

  /** Sends one get of `key` and returns at once; `done` gets (value or null, null or failure). */
  type AsyncGet = (String, (String | Null, Throwable | Null) => Unit) => Unit

  /** The TTL of every stored item (the seed's 7200 s). */
  val TtlSeconds: Int = 7200

  /** Every client's per-call timeout: long enough never to fire; a call that times out fails. */
  val TimeoutMillis: Long = 60_000L

  /** The preloaded value of `key` (the seed's `key + "value"`). */
  def valueOf(key: String): String = key + "value"

  /**
   * Stores `key0` .. `key<n-1>` with their values, each set awaited, from 16 virtual threads:
   * sequential sets took seconds per fork on a loaded machine, which `--smoke` (CI) pays for
   * every benchmark.
   */
  def preload(c: McContender, n: Int): Unit =
    val loaders = 16
    val failures = java.util.concurrent.ConcurrentLinkedQueue[Throwable]()
    val threads = (0 until loaders).map: l =>
      Thread.ofVirtual().start: () =>
        try (l until n by loaders).foreach(i => c.set(s"key$i", valueOf(s"key$i")))
        catch case t: Throwable => failures.add(t)
    threads.foreach(_.join())
    Option(failures.peek()).foreach(t => throw IllegalStateException("preload failed", t))

  /** Throws [[WrongValue]] unless `actual` is `expected`, naming the key. */
  def check(key: String, expected: String, actual: Any): Unit =
    if actual != expected then
      val shown = String.valueOf(actual).take(80)
      throw WrongValue(s"read back $shown for $key, expected ${expected.take(80)}")

  /** The contender behind a benchmark method name, connected to `address`. */
  def open(name: String, address: String): McContender = open(name, Seq(address))

  /**
   * The contender behind a benchmark method name, connected to `addresses`. With more than one
   * server, weft, spymemcached and xmemcached place keys with Ketama under the same node names
   * (`127.0.0.1:<port>`): spymemcached's `KETAMA_HASH` consistent locator (its names for an IP
   * literal), xmemcached's `KetamaMemcachedSessionLocator` in its nginx-compatible naming
   * (`host:port`, as libmemcached), weft's `NodeNaming.HostPort`. folsom has no Ketama.
   */
  def open(name: String, addresses: Seq[String]): McContender =
    val (host, port) =
      (addresses.head.takeWhile(_ != ':'), addresses.head.dropWhile(_ != ':').drop(1).toInt)
    def single = require(addresses.size == 1, s"$name takes one server")
    name match
      case "weft" | "weftInScope" => WeftContender(addresses, classic = false)
      case "weftDirect"           => WeftContender(addresses, classic = false, direct = true)
      case "weftClassic"          => WeftContender(addresses, classic = true)
      case "spyAscii"             => SpyContender(addresses, binary = false)
      case "spyBinary"            => SpyContender(addresses, binary = true)
      case "xmemAscii"            => XmemContender(addresses, binary = false, mergeGets = true)
      case "xmemBinary"           => XmemContender(addresses, binary = true, mergeGets = true)
      case "xmemAsciiUnmerged"    => XmemContender(addresses, binary = false, mergeGets = false)
      case "xmemBinaryUnmerged"   => XmemContender(addresses, binary = true, mergeGets = false)
      case "folsomAscii" =>
        single; FolsomContender(host, port, binary = false, serialising = false)
      case "folsomBinary" =>
        single; FolsomContender(host, port, binary = true, serialising = false)
      case "folsomSerialAscii" =>
        single; FolsomContender(host, port, binary = false, serialising = true)
      case other => throw IllegalArgumentException(s"unknown contender $other")

/**
 * 50 distinct keys, drawn once before measuring, as a Scala and a Java collection (each
 * client gets the one its API takes, so no conversion is timed).
 */
final class KeySet(val keys: IndexedSeq[String]):
  /** The same keys for the Java clients. */
  val javaList: java.util.List[String] =
    java.util.List.copyOf(scala.jdk.CollectionConverters.SeqHasAsJava(keys).asJava)

/** A value read back that is not the one stored (or a miss): the contender fails. */
final class WrongValue(message: String) extends IllegalStateException(message)
