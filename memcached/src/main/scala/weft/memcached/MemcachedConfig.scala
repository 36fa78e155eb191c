package weft.memcached

import scala.concurrent.duration.*

/** The wire protocol. */
enum Protocol:
  /** The meta commands (`mg`, `ms`, `md`, `ma`, `mn`), memcached 1.6 and later: the default. */
  case Meta

  /** The classic text commands, for servers older than 1.6 (no opaque; no base64 keys). */
  case Classic

/** What a call does when its key's node is down. */
enum FailureMode:
  /** Fail at once with [[Unavailable]]: a key only ever lives on its own node. The default. */
  case FailFast

  /**
   * Send the call to the next live node of the Ketama rehash sequence (spymemcached's: the key
   * hashed again as `"<try>" + key`, tries 0 to 6), or if all seven tries are down, to the next
   * live node in list order. Reads may then miss and writes land on a
   * node that will not serve the key once its own node is back; and that parked copy stays: a
   * second outage of the same node reads it again, older than the last acknowledged write
   * (ADR 0020). Use fail fast when a stale read matters, or short TTLs.
   */
  case Redistribute

/**
 * The client's settings. Only the servers are required; every other setting has a default that
 * suits a service talking to a memcached 1.6 cluster on its own network:
 * {{{
 * MemcachedConfig("127.0.0.1:11211")                                  // one server
 * MemcachedConfig(Seq("cache1:11211", "cache2:11211"), deadline = 200.millis)
 * }}}
 * A setting out of range (or null) fails at construction with [[InvalidArgument]] naming it.
 *
 * @param servers
 *   `host:port` of each node (at least one); host names are resolved once, when the client
 *   starts
 * @param protocol
 *   the meta commands of memcached 1.6+ (the default), or the classic text commands for older
 *   servers
 * @param locator
 *   how keys are placed on nodes: by default Ketama consistent hashing with spymemcached's node
 *   names, so weft and spymemcached put a key on the same node
 * @param failureMode
 *   when a key's node is down: fail the call at once (the default), or redistribute
 * @param deadline
 *   the time limit of a call unless the call gives its own: 1 second
 * @param connectTimeout
 *   the time limit of one connection attempt: 1 second
 * @param maxValueSize
 *   the largest value the client sends: 1 MiB minus 512 bytes, which fits the server's default
 *   1 MiB item size with a 250-byte key (checked against the real server by `ValueLimitSuite`);
 *   a larger value fails at the call with [[ValueTooLarge]]
 * @param maxReplyValueSize
 *   the largest data block accepted in a reply (a larger size is a desync): 64 MiB
 * @param maxLineLength
 *   the longest reply line accepted: 8 KiB
 * @param maxQueued
 *   requests per node waiting to be written, 16384; past it calls fail at once with
 *   [[Overloaded]]
 * @param maxInFlight
 *   requests per node written and not yet answered, 4096; the writer waits past it
 * @param livenessTimeout
 *   a connection whose oldest in-flight request has waited this long (2 seconds) with no byte
 *   arriving is closed (its calls fail with [[ConnectionLost]]) and replaced
 * @param reconnectBase
 *   the first delay before reconnecting, 20 ms; doubled after each failure up to
 *   `reconnectMax`, each delay drawn between half and all of it (jitter)
 * @param reconnectMax
 *   the longest delay between reconnection attempts: 1 second
 * @param binaryKeys
 *   send keys in base64 (meta `b` flag), so that any string of up to 186 UTF-8 bytes is a key;
 *   off by default (keys are then ASCII without spaces or control characters, up to 250 bytes)
 * @param multiGetChunk
 *   keys per request when a multi-get is split: 256
 */
final case class MemcachedConfig(
    servers: Seq[String],
    protocol: Protocol = Protocol.Meta,
    locator: Locator = Locator.Ketama(NodeNaming.Spymemcached),
    failureMode: FailureMode = FailureMode.FailFast,
    deadline: FiniteDuration = 1.second,
    connectTimeout: FiniteDuration = 1.second,
    maxValueSize: Int = MemcachedConfig.DefaultMaxValueSize,
    maxReplyValueSize: Int = 64 * 1024 * 1024,
    maxLineLength: Int = 8 * 1024,
    maxQueued: Int = 16 * 1024,
    maxInFlight: Int = 4 * 1024,
    livenessTimeout: FiniteDuration = 2.seconds,
    reconnectBase: FiniteDuration = 20.millis,
    reconnectMax: FiniteDuration = 1.second,
    binaryKeys: Boolean = false,
    multiGetChunk: Int = 256
):
  // every setting is checked here, nulls included, so a bad one fails at construction with a
  // message naming it (RefusedCallsSuite's regression test)
  Validate.notNull(servers, "servers")
  if servers.isEmpty then throw InvalidArgument("a client needs at least one server")
  servers.foreach(Validate.notNull(_, "server address"))
  Validate.notNull(protocol, "protocol")
  Validate.notNull(locator, "locator")
  locator match
    case Locator.Ketama(naming) => Validate.notNull(naming, "locator's node naming")
    case _                      => ()
  Validate.notNull(failureMode, "failureMode")
  if binaryKeys && protocol != Protocol.Meta then
    throw InvalidArgument("base64 keys need the meta protocol")
  Validate.deadline(deadline)
  Validate.deadline(connectTimeout, "connectTimeout")
  Validate.deadline(livenessTimeout, "livenessTimeout")
  Validate.deadline(reconnectBase, "reconnectBase")
  Validate.deadline(reconnectMax, "reconnectMax")
  for (name, v) <- Seq(
      "maxValueSize" -> maxValueSize,
      "maxReplyValueSize" -> maxReplyValueSize,
      "maxLineLength" -> maxLineLength,
      "maxQueued" -> maxQueued,
      "maxInFlight" -> maxInFlight,
      "multiGetChunk" -> multiGetChunk
    )
  do if v <= 0 then throw InvalidArgument(s"$name must be > 0, got $v")

/** Defaults. */
object MemcachedConfig:

  /**
   * 1 MiB minus 512 bytes: the server's default item limit (1 MiB) counts the key and an item
   * header too, so a value of exactly 1 MiB is refused; this one is stored with any key.
   */
  val DefaultMaxValueSize: Int = 1024 * 1024 - 512

  /** A one-server configuration. */
  def apply(server: String): MemcachedConfig = MemcachedConfig(Seq(server))
