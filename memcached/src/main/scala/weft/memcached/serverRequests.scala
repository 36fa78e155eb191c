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
 * A chunk of a multi-key read: one classic `get k1 k2 ...` line ended by `END`, in both modes;
 * with base64 keys (meta only) a quiet `mg <key> b v f k O<n> q` per key then `mn` (misses are
 * quiet, `MN` ends the chunk). The server parses one `get` line of n keys for much less than n
 * meta lines (`memcached-multiget-50` shows its CPU per op), and every `VALUE` line names its
 * key: a hit is accepted only for a key of this chunk, at most once, and the chunk is complete
 * only at its own end marker, so a reply can still never reach another request. A server error
 * in place of `END` fails the chunk; in a meta chunk it fails it once `MN` arrives.
 */
final private[memcached] class MultiGetRequest(
    val keys: IndexedSeq[String],
    encoded: IndexedSeq[Array[Byte]],
    binary: Boolean
) extends Request[Map[String, Hit]]:
  private val hits = java.util.HashMap[String, Hit](keys.length * 2)
  private var error: MemcachedException | Null = null
  // VALUE lines are read as ISO-8859-1 text: an ASCII key (as many bytes as chars) is its own
  // text, only other keys need their bytes re-read that way
  private lazy val byText: java.util.HashMap[String, Integer] =
    val m = java.util.HashMap[String, Integer](keys.length * 2)
    var i = 0
    while i < keys.length do
      m.put(text(i), i)
      i += 1
    m
  private var next = 0 // where the search for the next VALUE's key starts

  override def opaques: Int = if binary then keys.length else 1

  def encode(out: ByteSink, meta: Boolean): Unit =
    if binary then
      var i = 0
      while i < encoded.length do
        out.ascii("mg ").bytes(encoded(i)).ascii(" v f k q")
        opaqueFlag(out, opaque + i)
        binaryFlag(out, binary).crlf()
        i += 1
      out.ascii("mn").crlf()
    else
      out.ascii("get")
      var i = 0
      while i < encoded.length do
        out.byte(' ').bytes(encoded(i))
        i += 1
      out.crlf()

  def accept(r: Reply, meta: Boolean): Boolean = r.kind match
    case Kind.VA if binary =>
      // the chunk's opaques may wrap around 2^32: the index is the unsigned difference
      val i = if r.opaque < 0 then -1L else (r.opaque - opaque) & 0xffffffffL
      if i < 0 || i >= keys.length || r.flag('k') != keyText(encoded(i.toInt)) then unexpected(r)
      add(i.toInt, Hit(r.data.nn, parseFlags(r.flag('f')), 0L))
    case Kind.Value if !binary =>
      val i = indexOf(r.tokens(1))
      if i < 0 then unexpected(r)
      add(i, Hit(r.data.nn, parseFlags(r.tokens(2)), 0L))
    case Kind.MN if binary         => finish()
    case Kind.End if !binary       => finish()
    case _ if r.isError && !binary => failed(r.toError) // in place of END
    case _ if r.isError =>
      if error == null then error = r.toError
      false
    case _ => unexpected(r)

  /**
   * The index of the key whose text is `t`, or -1. The server answers a get line's keys in
   * their order, so the search goes on from the last hit and needs no map; a key found behind
   * it (a server that reorders) is looked up in the map.
   */
  private def indexOf(t: String): Int =
    var i = next
    while i < keys.length && text(i) != t do i += 1
    if i < keys.length then
      next = i + 1
      i
    else
      val j = byText.get(t)
      if j == null then -1 else j

  private def text(i: Int): String =
    if keys(i).length == encoded(i).length then keys(i) else keyText(encoded(i))

  private def add(i: Int, hit: Hit): Boolean =
    if hits.putIfAbsent(keys(i), hit) != null then
      throw ProtocolDesync(s"two values for key ${keys(i)} in one multi-get")
    false

  private def finish(): Boolean =
    val e = error
    if e != null then failed(e) else done(HitMap(hits))

  override def toString: String = s"multi-get of ${keys.length} keys"
