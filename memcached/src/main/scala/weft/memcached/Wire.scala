package weft.memcached

import Reply.Kind

/**
 * A protocol: how a request is written and how its replies complete it. A connection uses one
 * wire for its life ([[MetaWire]] or [[ClassicWire]], from the config), so neither the requests
 * nor the connection branch on the protocol. The reader hands each reply to the head of the
 * in-flight queue through [[accept]] until it returns `true`; a reply that does not belong to
 * that request (another opaque, another key, an unexpected code) throws [[ProtocolDesync]],
 * which closes the connection and fails every request in flight.
 */
private[memcached] trait Wire:

  /** Appends `r`'s bytes to `out`. */
  def encode(r: Request[?], out: ByteSink): Unit

  /** Hands `reply` to `r`; `true` when `r` is complete. */
  def accept(r: Request[?], reply: Reply): Boolean

/** What both wires share: the server commands (the same text in both) and the helpers. */
private[memcached] object Wire:

  /** The wire of `protocol`. */
  def apply(protocol: Protocol): Wire =
    if protocol == Protocol.Meta then MetaWire else ClassicWire

  /** Encodes the server commands (`version`, `flush_all`, `stats`); `false` for any other. */
  def encodeServer(r: Request[?], out: ByteSink): Boolean = r match
    case _: VersionRequest => out.ascii("version").crlf(); true
    case f: FlushRequest =>
      out.ascii("flush_all")
      if f.delay > 0 then out.byte(' ').number(f.delay)
      out.crlf()
      true
    case _: StatsRequest => out.ascii("stats").crlf(); true
    case _               => false

  /** Hands a reply to a server command (answered in order, without an opaque). */
  def acceptServer(r: Request[?], reply: Reply): Boolean = r match
    case v: VersionRequest =>
      reply.kind match
        case Kind.Version       => v.done(reply.rest)
        case _ if reply.isError => v.failed(reply.toError)
        case _                  => unexpected(r, reply)
    case f: FlushRequest =>
      reply.kind match
        case Kind.Ok            => f.done(())
        case _ if reply.isError => f.failed(reply.toError)
        case _                  => unexpected(r, reply)
    case s: StatsRequest =>
      reply.kind match
        case Kind.Stat if reply.tokens.length >= 2 =>
          s.stats += reply.tokens(1) -> reply.tokens.drop(2).mkString(" ")
          false
        case Kind.End           => s.done(s.stats.result())
        case _ if reply.isError => s.failed(reply.toError)
        case _                  => unexpected(r, reply)
    case _ => throw IllegalStateException(s"no wire for $r")

  /** The classic `get k1 k2 ...` line of a multi-get chunk (both wires, ASCII keys). */
  def encodeGetLine(m: MultiGetRequest, out: ByteSink): Unit =
    out.ascii("get")
    var i = 0
    while i < m.encoded.length do
      out.byte(' ').bytes(m.encoded(i))
      i += 1
    out.crlf()

  /** A reply to a chunk sent as one `get` line: `VALUE`s of its keys, then `END`. */
  def acceptGetLine(m: MultiGetRequest, reply: Reply): Boolean = reply.kind match
    case Kind.Value =>
      val i = m.indexOf(reply)
      if i < 0 then unexpected(m, reply)
      m.add(i, Hit(reply.data.nn, reply.tokenClientFlags(2), 0L))
    case Kind.End           => m.finish()
    case _ if reply.isError => m.failed(reply.toError) // in place of END
    case _                  => unexpected(m, reply)

  /** Throws the desync for a reply `r` cannot take. */
  def unexpected(r: Request[?], reply: Reply): Nothing =
    throw ProtocolDesync(s"reply \"$reply\" does not answer $r")

  /** The key bytes as text, one character per byte (as the parser reads reply lines). */
  def keyText(key: Array[Byte]): String = String(key, java.nio.charset.StandardCharsets.ISO_8859_1)
