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
   * node that will not serve the key once its own node is back.
   */
  case Redistribute

/**
 * The client's settings.
 *
 * @param servers
 *   `host:port` of each node; host names are resolved once, when the client starts
 * @param protocol
 *   meta (default) or classic text commands
 * @param locator
 *   how keys are placed on nodes (Ketama with spymemcached's node names by default)
 * @param failureMode
 *   fail fast (default) or redistribute when a node is down
 * @param deadline
 *   the default time limit of a call
 * @param connectTimeout
 *   the time limit of one connection attempt
 * @param maxValueSize
 *   the largest value the client sends; the default fits the server's default 1 MiB item
 *   size with a 250-byte key (checked against the real server by `ValueLimitSuite`)
 * @param maxReplyValueSize
 *   the largest data block accepted in a reply (a larger size is a desync)
 * @param maxLineLength
 *   the longest reply line accepted
 * @param maxQueued
 *   requests per node waiting to be written; past it calls fail with [[Overloaded]]
 * @param maxInFlight
 *   requests per node written and not yet answered; the writer waits past it
 * @param livenessTimeout
 *   a connection whose oldest in-flight request has waited this long with no byte arriving is
 *   closed (its calls fail with [[ConnectionLost]]) and replaced
 * @param reconnectBase
 *   the first delay before reconnecting; doubled after each failure up to `reconnectMax`,
 *   each delay drawn between half and all of it (jitter)
 * @param reconnectMax
 *   the longest delay between reconnection attempts
 * @param binaryKeys
 *   send keys in base64 (meta `b` flag): any string of up to 186 UTF-8 bytes is a key
 * @param multiGetChunk
 *   keys per request when a multi-get is split
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
  if servers.isEmpty then throw InvalidArgument("a client needs at least one server")
  if binaryKeys && protocol != Protocol.Meta then
    throw InvalidArgument("base64 keys need the meta protocol")
  Validate.deadline(deadline)
  Validate.deadline(connectTimeout)
  Validate.deadline(livenessTimeout)
  Validate.deadline(reconnectBase)
  Validate.deadline(reconnectMax)
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
