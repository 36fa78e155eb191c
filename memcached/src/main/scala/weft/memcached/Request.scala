package weft.memcached

import scala.util.{Failure, Success}
import weft.Promise

/**
 * One request on a connection: how it is encoded and how its replies complete it.
 *
 * The writer fiber gives the request its opaque numbers (`opaque until opaque + opaques`), encodes
 * it and puts it in the connection's in-flight queue in the same step; the reader fiber hands
 * the replies to the head of that queue through [[accept]] until it returns `true`. A reply that
 * does not belong to the request (another opaque, another key, an unexpected code) throws
 * [[ProtocolDesync]]: the connection is then closed and every request in flight fails.
 *
 * The caller waits on [[promise]]; when it gives up (deadline, cancellation) it completes the
 * promise itself, and the reply, read later, completes nothing: it is discarded (and counted).
 */
abstract private[memcached] class Request[T]:

  /** Completed with the result, a typed error, or by the caller giving up. */
  val promise: Promise[T] = Promise[T]()

  /** The first opaque number, set by the writer. */
  var opaque: Int = 0

  /**
   * The request's number on its connection (1, 2, ... in the order written), set by the
   * writer; the reader hands the k-th complete reply only to request number k.
   */
  var seq: Long = 0L

  /** The connection clock's time when written (for liveness), set by the writer. */
  @volatile var writtenAt: Long = 0L

  /** How many opaque numbers this request uses. */
  def opaques: Int = 1

  /** Appends the request's bytes (`meta`: meta commands; otherwise classic text ones). */
  def encode(out: ByteSink, meta: Boolean): Unit

  /** Takes one reply; `true` when the request is complete. */
  def accept(r: Reply, meta: Boolean): Boolean

  /** Completes with `v`; `true` (the request is done). */
  protected final def done(v: T): Boolean =
    promise.tryComplete(Success(v))
    true

  /** Completes with the failure `e`; `true`. */
  protected final def failed(e: Throwable): Boolean =
    promise.tryComplete(Failure(e))
    true

  /** In meta mode, a reply other than an error must carry this request's opaque. */
  protected final def checkOpaque(r: Reply, meta: Boolean): Unit =
    if meta && !r.isError && r.opaque != (opaque & 0xffffffffL) then unexpected(r)

  /** Throws the desync for a reply this request cannot take. */
  protected final def unexpected(r: Reply): Nothing =
    throw ProtocolDesync(s"reply \"$r\" does not answer $this")

/** Encoding helpers shared by the requests. */
private[memcached] object Request:

  /** `" O<n>"`: the opaque token, as an unsigned number. */
  def opaqueFlag(out: ByteSink, n: Int): ByteSink = out.byte(' ').byte('O').number(n & 0xffffffffL)

  /** `" b"` when keys are base64. */
  def binaryFlag(out: ByteSink, binary: Boolean): ByteSink =
    if binary then out.ascii(" b") else out

  /** The client flags of a meta `f` return flag or a classic token, as a 32-bit value. */
  def parseFlags(s: String | Null): Int =
    if s == null then 0
    else
      try java.lang.Long.parseLong(s).toInt
      catch case _: NumberFormatException => throw ProtocolDesync(s"bad client flags \"$s\"")

  /** A CAS token or counter value (unsigned 64-bit). */
  def parseUnsigned(s: String | Null): Long =
    if s == null then 0L
    else
      try java.lang.Long.parseUnsignedLong(s)
      catch case _: NumberFormatException => throw ProtocolDesync(s"bad number \"$s\"")

  /** The key bytes as text, one character per byte (as the parser reads reply lines). */
  def keyText(key: Array[Byte]): String = String(key, java.nio.charset.StandardCharsets.ISO_8859_1)
