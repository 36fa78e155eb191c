package weft.memcached

import Reply.Kind
import Request.*

/*
 * The requests, one class per command family. Meta encodings carry an opaque on every line and
 * ask for the key back (`k`) on reads, so a value is checked against both before it is handed
 * to a caller. Classic encodings are used for servers older than 1.6 (no opaque: replies are
 * matched by order and kind, and VALUE lines by key). Exact bytes: `RequestEncodingSuite`.
 */

/** `mg <key> v f k [c] [T<ttl>]` / `get`, `gets`, `gat`, `gats`: a read, optionally touching. */
final private[memcached] class GetRequest(
    key: Array[Byte],
    binary: Boolean,
    withCas: Boolean,
    touchTtl: Long // -1: no touch
) extends Request[GetResult]:
  private var hit: Hit | Null = null

  def encode(out: ByteSink, meta: Boolean): Unit =
    if meta then
      out.ascii("mg ").bytes(key).ascii(" v f k")
      if withCas then out.ascii(" c")
      if touchTtl >= 0 then out.flag('T', touchTtl)
      opaqueFlag(out, opaque)
      binaryFlag(out, binary).crlf()
    else
      if touchTtl >= 0 then
        out.ascii(if withCas then "gats " else "gat ").number(touchTtl).byte(' ')
      else out.ascii(if withCas then "gets " else "get ")
      out.bytes(key).crlf()

  def accept(r: Reply, meta: Boolean): Boolean =
    checkOpaque(r, meta)
    r.kind match
      case Kind.VA if meta =>
        if r.flag('k') != keyText(key) then unexpected(r)
        done(Hit(r.data.nn, parseFlags(r.flag('f')), parseUnsigned(r.flag('c'))))
      case Kind.EN if meta => done(Miss)
      case Kind.Value if !meta && hit == null =>
        if r.tokens(1) != keyText(key) then unexpected(r)
        val cas = if r.tokens.length > 4 then parseUnsigned(r.tokens(4)) else 0L
        hit = Hit(r.data.nn, parseFlags(r.tokens(2)), cas)
        false
      case Kind.End if !meta => done(if hit == null then Miss else hit.nn)
      case _ if r.isError    => failed(r.toError)
      case _                 => unexpected(r)

  override def toString: String = s"get ${keyText(key)}"

/** Storage modes: the meta `M` letter and the classic command. */
private[memcached] enum StoreMode(val letter: Char, val command: String):
  case Set extends StoreMode('S', "set")
  case Add extends StoreMode('E', "add")
  case Replace extends StoreMode('R', "replace")
  case Append extends StoreMode('A', "append")
  case Prepend extends StoreMode('P', "prepend")

/** `ms <key> <len> [F] [T] [C] M<mode>` / `set`, `add`, ..., `cas`. */
final private[memcached] class StoreRequest(
    key: Array[Byte],
    binary: Boolean,
    mode: StoreMode,
    value: Array[Byte],
    flags: Int,
    ttl: Long,
    cas: Long // 0: none
) extends Request[StoreResult]:

  def encode(out: ByteSink, meta: Boolean): Unit =
    if meta then
      out.ascii("ms ").bytes(key).byte(' ').number(value.length)
      if flags != 0 then out.flag('F', flags & 0xffffffffL)
      if ttl != 0 then out.flag('T', ttl)
      if cas != 0 then out.ascii(" C").ascii(java.lang.Long.toUnsignedString(cas))
      if mode != StoreMode.Set then out.ascii(" M").byte(mode.letter)
      opaqueFlag(out, opaque)
      binaryFlag(out, binary).crlf()
    else
      out.ascii(if cas != 0 then "cas" else mode.command).byte(' ').bytes(key).byte(' ')
      out.number(flags & 0xffffffffL).byte(' ').number(ttl).byte(' ').number(value.length)
      if cas != 0 then out.byte(' ').ascii(java.lang.Long.toUnsignedString(cas))
      out.crlf()
    out.bytes(value).crlf()

  def accept(r: Reply, meta: Boolean): Boolean =
    checkOpaque(r, meta)
    r.kind match
      case Kind.HD if meta         => done(StoreResult.Stored)
      case Kind.NS if meta         => done(StoreResult.NotStored)
      case Kind.EX if meta         => done(StoreResult.Exists)
      case Kind.NF if meta         => done(StoreResult.NotFound)
      case Kind.Stored if !meta    => done(StoreResult.Stored)
      case Kind.NotStored if !meta => done(StoreResult.NotStored)
      case Kind.Exists if !meta    => done(StoreResult.Exists)
      case Kind.NotFound if !meta  => done(StoreResult.NotFound)
      case _ if r.isError          => failed(r.toError)
      case _                       => unexpected(r)

  override def toString: String = s"${mode.command} ${keyText(key)} (${value.length} bytes)"

/** `md <key>` / `delete`: `true` if an item was deleted. */
final private[memcached] class DeleteRequest(key: Array[Byte], binary: Boolean)
    extends Request[Boolean]:

  def encode(out: ByteSink, meta: Boolean): Unit =
    if meta then
      out.ascii("md ").bytes(key)
      opaqueFlag(out, opaque)
      binaryFlag(out, binary).crlf()
    else out.ascii("delete ").bytes(key).crlf()

  def accept(r: Reply, meta: Boolean): Boolean =
    checkOpaque(r, meta)
    r.kind match
      case Kind.HD if meta        => done(true)
      case Kind.NF if meta        => done(false)
      case Kind.Deleted if !meta  => done(true)
      case Kind.NotFound if !meta => done(false)
      case _ if r.isError         => failed(r.toError)
      case _                      => unexpected(r)

  override def toString: String = s"delete ${keyText(key)}"

/**
 * `ma <key> D<delta> [MD] [N<ttl> J<initial>] v` / `incr`, `decr`: the new value, or `None` if
 * there was no item (and no initial value: the classic commands have none).
 */
final private[memcached] class ArithRequest(
    key: Array[Byte],
    binary: Boolean,
    increment: Boolean,
    delta: Long,
    initial: Long, // -1: none
    ttl: Long
) extends Request[Option[Long]]:

  def encode(out: ByteSink, meta: Boolean): Unit =
    if meta then
      out.ascii("ma ").bytes(key).flag('D', delta)
      if !increment then out.ascii(" MD")
      if initial >= 0 then out.flag('N', ttl).flag('J', initial)
      out.ascii(" v")
      opaqueFlag(out, opaque)
      binaryFlag(out, binary).crlf()
    else out.ascii(if increment then "incr " else "decr ").bytes(key).byte(' ').number(delta).crlf()

  def accept(r: Reply, meta: Boolean): Boolean =
    checkOpaque(r, meta)
    r.kind match
      case Kind.VA if meta =>
        done(Some(parseUnsigned(String(r.data.nn, java.nio.charset.StandardCharsets.ISO_8859_1))))
      case Kind.NF if meta        => done(None)
      case Kind.Number if !meta   => done(Some(parseUnsigned(r.tokens(0))))
      case Kind.NotFound if !meta => done(None)
      case _ if r.isError         => failed(r.toError)
      case _                      => unexpected(r)

  override def toString: String = s"${if increment then "incr" else "decr"} ${keyText(key)}"

/** `mg <key> T<ttl>` / `touch`: `true` if the item exists. */
final private[memcached] class TouchRequest(key: Array[Byte], binary: Boolean, ttl: Long)
    extends Request[Boolean]:

  def encode(out: ByteSink, meta: Boolean): Unit =
    if meta then
      out.ascii("mg ").bytes(key).flag('T', ttl)
      opaqueFlag(out, opaque)
      binaryFlag(out, binary).crlf()
    else out.ascii("touch ").bytes(key).byte(' ').number(ttl).crlf()

  def accept(r: Reply, meta: Boolean): Boolean =
    checkOpaque(r, meta)
    r.kind match
      case Kind.HD if meta        => done(true)
      case Kind.EN if meta        => done(false)
      case Kind.Touched if !meta  => done(true)
      case Kind.NotFound if !meta => done(false)
      case _ if r.isError         => failed(r.toError)
      case _                      => unexpected(r)

  override def toString: String = s"touch ${keyText(key)}"
