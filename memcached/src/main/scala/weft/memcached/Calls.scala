package weft.memcached

import scala.concurrent.duration.*
import weft.Async

/**
 * Starting calls: each validates its arguments (a bad one throws [[InvalidArgument]] here, before
 * anything is sent), builds its request and sends it to its key's node (see [[Request.send]]).
 * The direct calls of [[MemcachedClient]] await what these return; [[Pipelined]] returns it.
 * The deadline runs from the call's start, so validating and encoding count against it.
 */
final private[memcached] class Calls(client: MemcachedClient):
  private val meta = client.config.protocol == Protocol.Meta
  private val binary = client.config.binaryKeys

  /**
   * The wall clock in Unix seconds, for an expiry the server reads as an absolute time: it is the
   * server's clock that counts, so neither weft's clock nor a test kit's virtual time applies.
   */
  def nowSeconds: Long = System.currentTimeMillis() / 1000

  // ---- starting calls: the direct calls await these, `pipelined` returns them

  def startGet(
      key: String,
      withCas: Boolean,
      touch: Option[FiniteDuration],
      deadline: FiniteDuration
  )(using Async): Request[GetResult] =
    val due = client.dueAt(deadline)
    val t = touch.fold(-1L)(Validate.ttl(_, nowSeconds))
    start(key, due, deadline)(GetRequest(_, binary, withCas, t))

  /** An unconditional store: any answer but "stored" fails it with [[ServerError]]. */
  def startSet(
      key: String,
      value: Array[Byte],
      flags: Int,
      ttl: FiniteDuration,
      due: Long,
      deadline: FiniteDuration
  )(using Async): Request[Unit] =
    Validate.value(value, client.config.maxValueSize)
    val t = Validate.ttl(ttl, nowSeconds)
    start(key, due, deadline): k =>
      StoreRequest(k, binary, StoreMode.Set, value, flags, t, 0L, StoreRequest.Unconditional)

  def startStore(
      mode: StoreMode,
      key: String,
      value: Array[Byte],
      flags: Int,
      ttl: FiniteDuration,
      cas: Long,
      deadline: FiniteDuration
  )(using Async): Request[StoreResult] =
    storeUntil(mode, key, value, flags, ttl, cas, client.dueAt(deadline), deadline)

  def startCas(
      key: String,
      value: Array[Byte],
      cas: Long,
      flags: Int,
      ttl: FiniteDuration,
      deadline: FiniteDuration
  )(using Async): Request[StoreResult] =
    val due = client.dueAt(deadline)
    if cas == 0 then throw InvalidArgument("a CAS token is never 0")
    storeUntil(StoreMode.Set, key, value, flags, ttl, cas, due, deadline)

  private def storeUntil(
      mode: StoreMode,
      key: String,
      value: Array[Byte],
      flags: Int,
      ttl: FiniteDuration,
      cas: Long,
      due: Long,
      deadline: FiniteDuration
  )(using Async): Request[StoreResult] =
    Validate.value(value, client.config.maxValueSize)
    val t = Validate.ttl(ttl, nowSeconds)
    start(key, due, deadline): k =>
      StoreRequest(k, binary, mode, value, flags, t, cas, StoreRequest.AsAnswered)

  def startDelete(key: String, deadline: FiniteDuration)(using
      Async
  ): Request[Boolean] =
    start(key, client.dueAt(deadline), deadline)(DeleteRequest(_, binary))

  def startTouch(key: String, ttl: FiniteDuration, deadline: FiniteDuration)(
      using Async
  ): Request[Boolean] =
    val due = client.dueAt(deadline)
    val t = Validate.ttl(ttl, nowSeconds)
    start(key, due, deadline)(TouchRequest(_, binary, t))

  /** A counter without an initial value, in either protocol: one request. */
  def startArith(
      increment: Boolean,
      key: String,
      delta: Long,
      deadline: FiniteDuration
  )(using Async): Request[Option[Long]] =
    val due = client.dueAt(deadline)
    Validate.counter("delta", delta)
    start(key, due, deadline)(ArithRequest(_, binary, increment, delta, -1L, 0L))

  def arith(
      increment: Boolean,
      key: String,
      delta: Long,
      initial: Option[Long],
      ttl: FiniteDuration,
      deadline: FiniteDuration
  )(using Async): Option[Long] =
    val due = client.dueAt(deadline)
    Validate.counter("delta", delta)
    Validate.notNull(initial, "initial value")
    initial.foreach(Validate.counter("initial value", _))
    val t = Validate.ttl(ttl, nowSeconds)
    val init = if meta then initial.getOrElse(-1L) else -1L
    val first =
      start(key, due, deadline)(ArithRequest(_, binary, increment, delta, init, t)).awaitCall()
    (first, initial) match
      case (None, Some(v)) if !meta =>
        // classic commands have no initial value: create the counter, or count if we lost a
        // race; the three requests share the call's one deadline
        val text = v.toString.getBytes(java.nio.charset.StandardCharsets.US_ASCII)
        if storeUntil(StoreMode.Add, key, text, 0, ttl, 0L, due, deadline).awaitCall() ==
            StoreResult.Stored
        then Some(v)
        else
          start(key, due, deadline)(ArithRequest(_, binary, increment, delta, -1L, t)).awaitCall()
      case _ => first

  /** Validates `key`, builds the request and sends it to the key's node. */
  // inline, with `mk` inline: a call builds its request with no closure (the allocation
  // profile of `memcached-setget`)
  private inline def start[T](key: String, due: Long, deadline: FiniteDuration)(
      inline mk: Array[Byte] => Request[T]
  )(using Async): Request[T] =
    val req = mk(Validate.key(key, binary))
    req.send(client, client.nodeFor(key), due, deadline)
