package weft.memcached

/*
 * The requests: what each command asks, and the state its replies build up. How a request is
 * written and how its replies complete it is the connection's Wire (MetaWire, ClassicWire),
 * so each protocol's rules live in one place. Exact bytes: `RequestEncodingSuite`.
 */

/** A read of one key, optionally with its CAS token and optionally touching it. */
final private[memcached] class GetRequest(
    val key: Array[Byte],
    val binary: Boolean,
    val withCas: Boolean,
    val touchTtl: Long // -1: no touch
) extends Request[GetResult]:
  /** Classic mode: the `VALUE` read before `END`. */
  var hit: Hit | Null = null
  override def toString: String = s"get ${Wire.keyText(key)}"

/** Storage modes: the meta `M` letter and the classic command. */
private[memcached] enum StoreMode(val letter: Char, val command: String):
  case Set extends StoreMode('S', "set")
  case Add extends StoreMode('E', "add")
  case Replace extends StoreMode('R', "replace")
  case Append extends StoreMode('A', "append")
  case Prepend extends StoreMode('P', "prepend")

/**
 * A store; `outcome` turns the server's answer into the call's result (the answer itself, or
 * `Unit` for an unconditional `set`, which fails on any answer but "stored").
 */
final private[memcached] class StoreRequest[R](
    val key: Array[Byte],
    val binary: Boolean,
    val mode: StoreMode,
    val value: Array[Byte],
    val flags: Int,
    val ttl: Long,
    val cas: Long, // 0: none
    outcome: StoreRequest.Outcome[R]
) extends Request[R]:
  /** Completes with the outcome of the server's `answer`. */
  def answered(answer: StoreResult): Boolean =
    try done(outcome(this, answer))
    catch case e: MemcachedException => failed(e)
  override def toString: String = s"${mode.command} ${Wire.keyText(key)} (${value.length} bytes)"

/** The outcomes of a store. */
private[memcached] object StoreRequest:

  /** A store's result from the server's answer; throws to fail the call. */
  type Outcome[R] = (StoreRequest[R], StoreResult) => R

  /** The answer itself (`add`, `replace`, `cas`, ...). */
  val AsAnswered: Outcome[StoreResult] = (_, a) => a

  /** An unconditional store: any answer but "stored" is a [[ServerError]]. */
  val Unconditional: Outcome[Unit] = (r, a) =>
    if a != StoreResult.Stored then
      throw ServerError(
        s"set ${Wire.keyText(r.key)}: the server answered $a to an unconditional store"
      )

/** A delete: `true` if an item was deleted. */
final private[memcached] class DeleteRequest(val key: Array[Byte], val binary: Boolean)
    extends Request[Boolean]:
  override def toString: String = s"delete ${Wire.keyText(key)}"

/**
 * An increment or decrement: the new value, or `None` if there was no item (and no initial
 * value: the classic commands have none).
 */
final private[memcached] class ArithRequest(
    val key: Array[Byte],
    val binary: Boolean,
    val increment: Boolean,
    val delta: Long,
    val initial: Long, // -1: none
    val ttl: Long
) extends Request[Option[Long]]:
  override def toString: String = s"${if increment then "incr" else "decr"} ${Wire.keyText(key)}"

/** A touch: `true` if the item exists. */
final private[memcached] class TouchRequest(
    val key: Array[Byte],
    val binary: Boolean,
    val ttl: Long
) extends Request[Boolean]:
  override def toString: String = s"touch ${Wire.keyText(key)}"

/** `version`: the server's version string. */
final private[memcached] class VersionRequest extends Request[String]:
  override def toString: String = "version"

/** `flush_all [delay]`: invalidates every item (after `delay` seconds). */
final private[memcached] class FlushRequest(val delay: Long) extends Request[Unit]:
  override def toString: String = "flush_all"

/** `stats`: the server's counters by name. */
final private[memcached] class StatsRequest extends Request[Map[String, String]]:
  /** The `STAT` lines read so far. */
  val stats: scala.collection.mutable.Builder[(String, String), Map[String, String]] =
    Map.newBuilder[String, String]
  override def toString: String = "stats"
