package weft.memcached

import Reply.Kind
import Request.*

/*
 * Requests that are the same in both modes (classic commands, answered in order without an
 * opaque) and the multi-key read. Exact bytes: `RequestEncodingSuite`.
 */

/** `version`: the server's version string. */
final private[memcached] class VersionRequest extends Request[String]:
  def encode(out: ByteSink, meta: Boolean): Unit = out.ascii("version").crlf()
  def accept(r: Reply, meta: Boolean): Boolean = r.kind match
    case Kind.Version   => done(r.rest)
    case _ if r.isError => failed(r.toError)
    case _              => unexpected(r)
  override def toString: String = "version"

/** `flush_all [delay]`: invalidates every item (after `delay` seconds). */
final private[memcached] class FlushRequest(delay: Long) extends Request[Unit]:
  def encode(out: ByteSink, meta: Boolean): Unit =
    out.ascii("flush_all")
    if delay > 0 then out.byte(' ').number(delay)
    out.crlf()
  def accept(r: Reply, meta: Boolean): Boolean = r.kind match
    case Kind.Ok        => done(())
    case _ if r.isError => failed(r.toError)
    case _              => unexpected(r)
  override def toString: String = "flush_all"

/** `stats`: the server's counters by name. */
final private[memcached] class StatsRequest extends Request[Map[String, String]]:
  private val stats = Map.newBuilder[String, String]
  def encode(out: ByteSink, meta: Boolean): Unit = out.ascii("stats").crlf()
  def accept(r: Reply, meta: Boolean): Boolean = r.kind match
    case Kind.Stat if r.tokens.length >= 2 =>
      stats += r.tokens(1) -> r.tokens.drop(2).mkString(" ")
      false
    case Kind.End       => done(stats.result())
    case _ if r.isError => failed(r.toError)
    case _              => unexpected(r)
  override def toString: String = "stats"

/**
 * A chunk of a multi-key read: meta `mg <key> v f k O<n> q` per key then `mn` (misses are quiet,
 * `MN` ends the chunk); classic `get k1 k2 ...` ended by `END`. A hit is accepted only for a key
 * of this chunk (by opaque and by key, in meta mode); a server error fails the whole chunk once
 * its end arrives.
 */
final private[memcached] class MultiGetRequest(
    val keys: IndexedSeq[String],
    encoded: IndexedSeq[Array[Byte]],
    binary: Boolean
) extends Request[Map[String, Hit]]:
  private val hits = scala.collection.mutable.HashMap[String, Hit]()
  private var error: MemcachedException | Null = null
  private lazy val byText: Map[String, Int] =
    encoded.indices.map(i => keyText(encoded(i)) -> i).toMap

  override def opaques: Int = keys.length

  def encode(out: ByteSink, meta: Boolean): Unit =
    if meta then
      var i = 0
      while i < encoded.length do
        out.ascii("mg ").bytes(encoded(i)).ascii(" v f k q")
        opaqueFlag(out, opaque + i)
        binaryFlag(out, binary).crlf()
        i += 1
      out.ascii("mn").crlf()
    else
      out.ascii("get")
      encoded.foreach(k => out.byte(' ').bytes(k))
      out.crlf()

  def accept(r: Reply, meta: Boolean): Boolean = r.kind match
    case Kind.VA if meta =>
      // the chunk's opaques may wrap around 2^32: the index is the unsigned difference
      val i = if r.opaque < 0 then -1L else (r.opaque - opaque) & 0xffffffffL
      if i < 0 || i >= keys.length || r.flag('k') != keyText(encoded(i.toInt)) then unexpected(r)
      add(i.toInt, Hit(r.data.nn, parseFlags(r.flag('f')), 0L))
    case Kind.Value if !meta =>
      val i = byText.getOrElse(r.tokens(1), -1)
      if i < 0 then unexpected(r)
      add(i, Hit(r.data.nn, parseFlags(r.tokens(2)), 0L))
    case Kind.MN if meta         => finish()
    case Kind.End if !meta       => finish()
    case _ if r.isError && !meta => failed(r.toError) // in place of END
    case _ if r.isError =>
      if error == null then error = r.toError
      false
    case _ => unexpected(r)

  private def add(i: Int, hit: Hit): Boolean =
    if hits.put(keys(i), hit).isDefined then
      throw ProtocolDesync(s"two values for key ${keys(i)} in one multi-get")
    false

  private def finish(): Boolean =
    val e = error
    if e != null then failed(e) else done(hits.toMap)

  override def toString: String = s"multi-get of ${keys.length} keys"
