package weft.memcached

import scala.concurrent.duration.*
import weft.{Async, Future}

/**
 * The client's calls, pipelined: each puts its request on its node's connection and returns
 * at once with a [[weft.Future]] that the connection's reader completes. No fiber is started
 * per call, so a caller can have many requests in flight and wait for them together:
 *
 * {{{
 * val stored = client.pipelined.set("k", bytes)
 * val read = client.pipelined.get("k") // sent right behind the set: reads what it stored
 * stored.await
 * read.await // Hit(bytes, ...)
 * }}}
 *
 * ==Ordering==
 * Requests to one node go out on its one connection in the order of the calls that made them
 * (of one caller; concurrent callers interleave), and the server answers them in that order: a
 * `set` then a `get` of the same key, issued back to back without waiting, reads the value just
 * stored. Keys on different nodes have no order between them.
 *
 * ==Outcomes==
 * Bad arguments (a key the server would misread, a negative TTL) throw [[InvalidArgument]] at
 * the call. Everything else is in the future: the result, or the typed error the direct call
 * would throw ([[ClientClosed]], [[Unavailable]], [[Overloaded]], [[Timeout]] when the deadline
 * passes, [[ServerError]], [[ConnectionLost]], [[ProtocolDesync]]).
 *
 * ==Giving up==
 * `future.cancel()` abandons the request (ADR 0005): one not yet written is never written; one
 * written has its reply read and discarded (counted in [[NodeStats.lateReplies]]). The deadline
 * runs from the call, as for the direct calls; a future nobody awaits still completes by it.
 *
 * The direct calls ([[MemcachedClient.get]] and the others) are these calls awaited: the same
 * path, with a cancelled caller abandoning its request.
 */
final class Pipelined private[memcached] (client: MemcachedClient):

  private def default = client.defaultDeadline

  /** [[MemcachedClient.get]], pipelined. */
  def get(key: String, deadline: FiniteDuration = default)(using Async): Future[GetResult] =
    client.calls.startGet(key, withCas = false, touch = None, deadline)

  /** [[MemcachedClient.gets]], pipelined: the item with its CAS token. */
  def gets(key: String, deadline: FiniteDuration = default)(using Async): Future[GetResult] =
    client.calls.startGet(key, withCas = true, touch = None, deadline)

  /** [[MemcachedClient.getAndTouch]], pipelined. */
  def getAndTouch(key: String, ttl: FiniteDuration, deadline: FiniteDuration = default)(using
      Async
  ): Future[GetResult] = client.calls.startGet(key, withCas = false, touch = Some(ttl), deadline)

  /**
   * [[MemcachedClient.set]], pipelined: completes once the server has stored the value, and
   * fails with [[ServerError]] on any other answer.
   */
  def set(
      key: String,
      value: Array[Byte],
      flags: Int = 0,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = default
  )(using Async): Future[Unit] =
    client.calls.startSet(key, value, flags, ttl, client.dueAt(deadline), deadline)

  /** [[MemcachedClient.add]], pipelined. */
  def add(
      key: String,
      value: Array[Byte],
      flags: Int = 0,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = default
  )(using Async): Future[StoreResult] =
    client.calls.startStore(StoreMode.Add, key, value, flags, ttl, 0L, deadline)

  /** [[MemcachedClient.replace]], pipelined. */
  def replace(
      key: String,
      value: Array[Byte],
      flags: Int = 0,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = default
  )(using Async): Future[StoreResult] =
    client.calls.startStore(StoreMode.Replace, key, value, flags, ttl, 0L, deadline)

  /** [[MemcachedClient.append]], pipelined. */
  def append(key: String, value: Array[Byte], deadline: FiniteDuration = default)(using
      Async
  ): Future[StoreResult] =
    client.calls.startStore(StoreMode.Append, key, value, 0, Duration.Zero, 0L, deadline)

  /** [[MemcachedClient.prepend]], pipelined. */
  def prepend(key: String, value: Array[Byte], deadline: FiniteDuration = default)(using
      Async
  ): Future[StoreResult] =
    client.calls.startStore(StoreMode.Prepend, key, value, 0, Duration.Zero, 0L, deadline)

  /**
   * [[MemcachedClient.cas]], pipelined.
   * @throws InvalidArgument
   *   if `cas` is 0 (no token is)
   */
  def cas(
      key: String,
      value: Array[Byte],
      cas: Long,
      flags: Int = 0,
      ttl: FiniteDuration = Duration.Zero,
      deadline: FiniteDuration = default
  )(using Async): Future[StoreResult] = client.calls.startCas(key, value, cas, flags, ttl, deadline)

  /** [[MemcachedClient.delete]], pipelined. */
  def delete(key: String, deadline: FiniteDuration = default)(using Async): Future[Boolean] =
    client.calls.startDelete(key, deadline)

  /** [[MemcachedClient.touch]], pipelined. */
  def touch(key: String, ttl: FiniteDuration, deadline: FiniteDuration = default)(using
      Async
  ): Future[Boolean] = client.calls.startTouch(key, ttl, deadline)

  /**
   * [[MemcachedClient.incr]] without an initial value, pipelined: the new value, or `None` if
   * there is no item. (A counter created on first use is the direct `incr(key, delta, initial)`:
   * with the classic protocol that takes three requests, each waiting for the last.)
   */
  def incr(key: String, delta: Long, deadline: FiniteDuration = default)(using
      Async
  ): Future[Option[Long]] = client.calls.startArith(increment = true, key, delta, deadline)

  /** [[MemcachedClient.decr]] without an initial value, pipelined (see [[incr]]). */
  def decr(key: String, delta: Long, deadline: FiniteDuration = default)(using
      Async
  ): Future[Option[Long]] = client.calls.startArith(increment = false, key, delta, deadline)
