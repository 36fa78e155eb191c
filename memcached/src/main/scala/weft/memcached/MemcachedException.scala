package weft.memcached

/**
 * Every error a memcached call fails with. A call completes exactly once: with its result, or
 * with one of these subclasses (a `CancellationException` only when the caller itself was
 * cancelled).
 *
 * [[retriable]] says whether the same call may succeed if simply made again: the request never
 * reached a server or its connection failed, so the server's state is unknown but the call was
 * well-formed. Errors of the call itself (a bad key, a value too large) are not retriable.
 */
sealed abstract class MemcachedException(message: String, cause: Throwable | Null = null)
    extends RuntimeException(message, cause):

  /** Whether making the same call again may succeed. */
  def retriable: Boolean

/** The key is empty, longer than 250 bytes, or holds whitespace or control bytes. */
final class InvalidKey(message: String) extends MemcachedException(message):
  def retriable: Boolean = false

/** A numeric field (TTL, delta, initial value, deadline) or a count is out of range. */
final class InvalidArgument(message: String) extends MemcachedException(message):
  def retriable: Boolean = false

/** The value is larger than the client's limit (checked before any byte is written). */
final class ValueTooLarge(message: String) extends MemcachedException(message):
  def retriable: Boolean = false

/** The server answered `CLIENT_ERROR` (or `ERROR`) to this request; the connection is kept. */
final class ClientError(message: String) extends MemcachedException(message):
  def retriable: Boolean = false

/**
 * The server answered `SERVER_ERROR` to this request (e.g. `object too large for cache`, `out
 * of memory`); the connection is kept.
 */
final class ServerError(message: String) extends MemcachedException(message):
  def retriable: Boolean = true

/**
 * The call's deadline passed first. Its reply, if one comes, is read and discarded; a request
 * still unsent when the deadline passed (the deadline counts from the call) is never sent.
 */
final class Timeout(message: String) extends MemcachedException(message):
  def retriable: Boolean = true

/** The key's node has no connection now (down, or reconnecting) and the call was not sent. */
final class Unavailable(message: String) extends MemcachedException(message):
  def retriable: Boolean = true

/** The node's queue or in-flight window is full: the call failed fast and was not sent. */
final class Overloaded(message: String) extends MemcachedException(message):
  def retriable: Boolean = true

/** The connection broke (closed, reset, or silent past the liveness limit) before the reply. */
final class ConnectionLost(message: String, cause: Throwable | Null = null)
    extends MemcachedException(message, cause):
  def retriable: Boolean = true

/**
 * The reply stream made no sense (garbage, wrong lengths, a reply for another request): the
 * connection was closed and every call in flight on it failed with this error.
 */
final class ProtocolDesync(message: String) extends MemcachedException(message):
  def retriable: Boolean = true

/** The client was closed before the call completed (or the call came after close). */
final class ClientClosed(message: String) extends MemcachedException(message):
  def retriable: Boolean = false
