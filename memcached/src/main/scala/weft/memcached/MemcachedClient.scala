package weft.memcached

import java.util.concurrent.atomic.AtomicBoolean
import scala.concurrent.duration.*
import scala.util.Try
import weft.{Async, CompletionGroup, Future, Resource}
import weft.internal.async.GroupJoin

/**
 * A memcached client in direct style: `client.get(key)` inside `Async` returns the result or
 * throws a [[MemcachedException]].
 *
 * {{{
 * Async.blocking:
 *   MemcachedClient.resource(MemcachedConfig("127.0.0.1:11211")).use: client =>
 *     client.put("greeting", "hello")
 *     client.fetch[String]("greeting") // Some("hello")
 * }}}
 *
 * [[pipelined]] has the same calls returning a [[weft.Future]] at once, with no fiber per call;
 * the direct calls are those awaited.
 *
 * Every call validates its key and fields before anything is written (typed errors), goes to
 * its key's node (see [[Locator]]) over that node's one pipelined connection, and completes by
 * its deadline: with the result, or with a typed error. Keys and numeric fields that the server
 * would misread are refused at the call (a bad storage line desynchronises a 1.6 server).
 *
 * The client runs virtual threads of its own (a few per server, in the scope that opened it),
 * so open it as a [[Resource]] (`MemcachedClient.resource(config).use`) or with
 * `MemcachedClient.open(config)`, which ties it to the current scope; [[close]] fails pending
 * calls with [[ClientClosed]] and joins its threads. Host names are resolved once, when the
 * client starts. The defaults (a 1 second deadline per call, fail fast when a server is down,
 * Ketama placement as spymemcached's) are listed in [[MemcachedConfig]].
 */
final class MemcachedClient private (
    val config: MemcachedConfig,
    cluster: Cluster,
    group: CompletionGroup
):
  private val closed = AtomicBoolean(false)
  private val nodes = cluster.nodes

  /** The default deadline of every call. */
  def defaultDeadline: FiniteDuration = config.deadline

  /**
   * The same calls, pipelined: each returns at once with a future the connection completes,
   * with no fiber per call; requests to a node go out in call order (see [[Pipelined]]).
   */
  val pipelined: Pipelined = Pipelined(this)

  /** Validates and starts the calls: the direct calls await what it returns. */
  private[memcached] val calls: Calls = Calls(this)

  // ---- reads

  /** The item under `key`: a [[Hit]] (CAS token 0) or [[Miss]]. */
  def get(key: String, deadline: FiniteDuration = defaultDeadline)(using Async): GetResult =
    calls.startGet(key, withCas = false, touch = None, deadline).awaitCall()

  /** The item under `key` with its CAS token (for [[cas]]). */
  def gets(key: String, deadline: FiniteDuration = defaultDeadline)(using Async): GetResult =
    calls.startGet(key, withCas = true, touch = None, deadline).awaitCall()

  /** The item under `key`, its TTL reset to `ttl`. */
  def getAndTouch(key: String, ttl: FiniteDuration, deadline: FiniteDuration = defaultDeadline)(
      using Async
  ): GetResult =
    calls.startGet(key, withCas = false, touch = Some(ttl), deadline).awaitCall()

  /** The value under `key` decoded by `codec`, if any. */
  def fetch[T](key: String, deadline: FiniteDuration = defaultDeadline)(using
      codec: Codec[T]
  )(using Async): Option[T] =
    Validate.notNull(codec, "codec")
    get(key, deadline).toOption.map(codec.decode)

  /**
   * Many keys at once (repeats read once): split per node into chunks, each one `get` line (quiet
   * `mg` lines for base64 keys), all sent before any reply is awaited, read while they are
   * written. A node that fails fails only its own keys (in [[MultiGetResult.failures]]); a
   * call on a closed client throws [[ClientClosed]], as every other call does.
   */
  def getMulti(keys: Iterable[String], deadline: FiniteDuration = defaultDeadline)(using
      Async
  ): MultiGetResult =
    val due = dueAt(deadline)
    MultiGet.run(this, keys, due, deadline)

  // ---- writes

  /**
   * Stores `value` under `key`, whatever was there. Returns once the server has stored it: an
   * unconditional store has no other outcome, so there is no [[StoreResult]] to look at (and
   * `client.set(k, v)` is a plain statement under `-Wnonunit-statement`). A server that answers
   * anything but "stored" fails the call with [[ServerError]].
   *
   * @param flags
   *   the 32-bit client flags stored with the value (0 unless given)
   * @param ttl
   *   the time to live; zero (the default) means the item never expires. Up to 30 days it is
   *   sent as relative seconds, beyond as an absolute time (the protocol's rule)
   * @param deadline
   *   the time the call may take (the config's `deadline` unless given)
   */
  def set(
      key: String,
      value: Array[Byte],
      flags: Int = 0,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = defaultDeadline
  )(using Async): Unit =
    calls.startSet(key, value, flags, ttl, dueAt(deadline), deadline).awaitCall()

  /** Stores `value` under `key` only if there is no item. */
  def add(
      key: String,
      value: Array[Byte],
      flags: Int = 0,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = defaultDeadline
  )(using Async): StoreResult =
    calls.startStore(StoreMode.Add, key, value, flags, ttl, 0L, deadline).awaitCall()

  /** Stores `value` under `key` only if there is an item. */
  def replace(
      key: String,
      value: Array[Byte],
      flags: Int = 0,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = defaultDeadline
  )(using Async): StoreResult =
    calls.startStore(StoreMode.Replace, key, value, flags, ttl, 0L, deadline).awaitCall()

  /** Appends `value` to the item's value (flags and TTL unchanged). */
  def append(key: String, value: Array[Byte], deadline: FiniteDuration = defaultDeadline)(using
      Async
  ): StoreResult =
    calls.startStore(StoreMode.Append, key, value, 0, Duration.Zero, 0L, deadline).awaitCall()

  /** Prepends `value` to the item's value (flags and TTL unchanged). */
  def prepend(key: String, value: Array[Byte], deadline: FiniteDuration = defaultDeadline)(using
      Async
  ): StoreResult =
    calls.startStore(StoreMode.Prepend, key, value, 0, Duration.Zero, 0L, deadline).awaitCall()

  /** Stores `value` only if the item's CAS token is still `cas` (from [[gets]]). */
  def cas(
      key: String,
      value: Array[Byte],
      cas: Long,
      flags: Int = 0,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = defaultDeadline
  )(using Async): StoreResult =
    calls.startCas(key, value, cas, flags, ttl, deadline).awaitCall()

  /**
   * Stores `value` encoded by `codec` (UTF-8 and flags 0 for a `String`): a [[set]], with its
   * `ttl` (zero: never expires) and `deadline`, which covers the encoding too.
   * @throws InvalidArgument
   *   if `value` is null
   */
  def put[T](
      key: String,
      value: T,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = defaultDeadline
  )(using codec: Codec[T])(using Async): Unit =
    val due = dueAt(deadline)
    Validate.notNull(value, "value")
    Validate.notNull(codec, "codec")
    val (bytes, flags) = codec.encode(value)
    calls.startSet(key, bytes, flags, ttl, due, deadline).awaitCall()

  /** Deletes the item; `true` if there was one. */
  def delete(key: String, deadline: FiniteDuration = defaultDeadline)(using Async): Boolean =
    calls.startDelete(key, deadline).awaitCall()

  /** Resets the item's TTL; `true` if there was an item. */
  def touch(key: String, ttl: FiniteDuration, deadline: FiniteDuration = defaultDeadline)(using
      Async
  ): Boolean =
    calls.startTouch(key, ttl, deadline).awaitCall()

  /**
   * Adds `delta` to the counter (an unsigned 64-bit decimal value); its new value, or `None`
   * if there is no item and no `initial` value was given. With `initial`, a missing counter is
   * created with that value (and `ttl`).
   *
   * The counter is unsigned 64-bit and the result carries its 64 bits in a `Long`: a value at
   * or above 2^63^ reads as negative; `java.lang.Long.toUnsignedString` or `compareUnsigned`
   * read it as the server does (past 2^64^ - 1 the server wraps to 0).
   */
  def incr(
      key: String,
      delta: Long,
      initial: Option[Long] = None,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = defaultDeadline
  )(using Async): Option[Long] = calls.arith(increment = true, key, delta, initial, ttl, deadline)

  /** Subtracts `delta` from the counter (not below 0); as [[incr]] otherwise. */
  def decr(
      key: String,
      delta: Long,
      initial: Option[Long] = None,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = defaultDeadline
  )(using Async): Option[Long] = calls.arith(increment = false, key, delta, initial, ttl, deadline)

  // ---- servers

  /**
   * Each node's version string, by node. The request goes to every node, whatever the others
   * do; if one fails, the call throws that failure once every node has answered or failed
   * (the other nodes' failures are attached as suppressed). [[versionByNode]] gives each node's
   * outcome instead.
   */
  def version(deadline: FiniteDuration = defaultDeadline)(using Async): Map[String, String] =
    Broadcast.orThrow(nodes, versionByNode(deadline))

  /** Each node's version string or failure, by node: every node is asked. */
  def versionByNode(deadline: FiniteDuration = defaultDeadline)(using
      Async
  ): Map[String, Try[String]] =
    Broadcast.run(this, nodes, dueAt(deadline), deadline)(() => VersionRequest())

  /**
   * Invalidates every item on every node (after `delay`). Every node gets the request even if
   * one is down; the call then throws that node's failure (others suppressed) once every node
   * has answered or failed.
   */
  def flushAll(delay: FiniteDuration = Duration.Zero, deadline: FiniteDuration = defaultDeadline)(
      using Async
  ): Unit =
    val due = dueAt(deadline)
    val d = Validate.ttl(delay, calls.nowSeconds, "delay")
    val _ = Broadcast.orThrow(
      nodes,
      Broadcast.run(this, nodes, due, deadline)(() => FlushRequest(d))
    )

  /**
   * Each node's `stats`, by node; as [[version]], every node is asked and a failure is thrown
   * once all have answered. [[statsByNode]] gives each node's outcome instead.
   */
  def stats(deadline: FiniteDuration = defaultDeadline)(using
      Async
  ): Map[String, Map[String, String]] = Broadcast.orThrow(nodes, statsByNode(deadline))

  /** Each node's `stats` or failure, by node: every node is asked. */
  def statsByNode(deadline: FiniteDuration = defaultDeadline)(using
      Async
  ): Map[String, Try[Map[String, String]]] =
    Broadcast.run(this, nodes, dueAt(deadline), deadline)(() => StatsRequest())

  /** A snapshot of every node's counters. */
  def nodeStats: IndexedSeq[NodeStats] = nodes.map(_.counters.snapshot)

  /**
   * Closes the client: pending calls fail with [[ClientClosed]]; its fibers are joined. The end
   * of the scope that opened it stops it too: later calls then fail with [[ClientClosed]] as
   * well, and `close` still joins what is left.
   */
  def close(): Unit =
    if closed.compareAndSet(false, true) then
      nodes.foreach(_.stop(ClientClosed("the client is closed")))
      group.cancel()
      GroupJoin.uninterruptibly(group)
      group.unlink()

  override def toString: String =
    s"MemcachedClient(${config.protocol}, ${nodes.length} node(s): ${nodeStats.mkString("; ")})"

  // ---- internals

  /**
   * Closed by [[close]], or by the end of the scope that opened it (its group is then
   * cancelled): either way calls fail with [[ClientClosed]] (ResourceSuite's regression test).
   */
  private[memcached] def isClosed: Boolean = closed.get || group.isCancelled

  /**
   * The time of the support's clock (`Clocks.now`) by which a call with `deadline` must complete, taken when the call
   * starts, so that the client's own work (encoding, validating and grouping keys) counts
   * against it (GiveUpSuite's regression tests). Capped far in the future (a century) so the
   * arithmetic on it never wraps.
   */
  private[memcached] def dueAt(deadline: FiniteDuration)(using Async): Long =
    Clocks.now() + math.min(Validate.deadline(deadline), MemcachedClient.MaxDeadlineNanos)

  /** The only node of a one-server client (every key's), or `null`. */
  private[memcached] val singleNode: Node | Null = if nodes.length == 1 then nodes(0) else null

  /** The node of `key` (see [[Cluster.nodeFor]]). */
  private[memcached] def nodeFor(key: String): Node = cluster.nodeFor(key)

/** Opening clients. */
object MemcachedClient:

  /** The longest time a deadline counts: a century, so that `now + deadline` never wraps. */
  private val MaxDeadlineNanos: Long = 100L * 365 * 24 * 3600 * 1_000_000_000L

  /** The client as a resource: opened on acquisition, closed (and joined) on release. */
  def resource(config: MemcachedConfig): Resource[MemcachedClient] =
    Validate.notNull(config, "config")
    Resource(open(config), _.close())

  /**
   * Opens a client whose threads belong to the caller's scope: close it (or use [[resource]]);
   * at the latest it stops when the scope ends. Waits for each node's first connection attempt
   * (a node that cannot be reached is down, and reconnected in the background).
   * @throws InvalidArgument
   *   for a malformed server address or an unknown host
   */
  def open(config: MemcachedConfig)(using async: Async): MemcachedClient =
    Validate.notNull(config, "config")
    val cluster = Cluster(config)
    val group = CompletionGroup()
    group.link(async.group)
    val client = MemcachedClient(config, cluster, group)
    val scoped = async.withGroup(group)
    cluster.nodes.foreach(n => Future(n.supervise())(using scoped))
    cluster.nodes.foreach(_.awaitFirstAttempt())
    client
