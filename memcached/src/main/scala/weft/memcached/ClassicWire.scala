package weft.memcached

import Reply.Kind
import Wire.*

/**
 * The classic text protocol, for servers older than 1.6: no opaque, so replies are matched by
 * order (the connection's request numbers) and kind, and `VALUE` lines by key. Base64 keys need
 * the meta protocol (the config refuses them here).
 */
private[memcached] object ClassicWire extends Wire:

  def encode(r: Request[?], out: ByteSink): Unit = r match
    case g: GetRequest =>
      if g.touchTtl >= 0 then
        out.ascii(if g.withCas then "gats " else "gat ").number(g.touchTtl).byte(' ')
      else out.ascii(if g.withCas then "gets " else "get ")
      out.bytes(g.key).crlf()
    case s: StoreRequest[?] =>
      out.ascii(if s.cas != 0 then "cas" else s.mode.command).byte(' ').bytes(s.key).byte(' ')
      out.number(s.flags & 0xffffffffL).byte(' ').number(s.ttl).byte(' ').number(s.value.length)
      if s.cas != 0 then out.byte(' ').ascii(java.lang.Long.toUnsignedString(s.cas))
      out.crlf().bytes(s.value).crlf()
    case d: DeleteRequest => out.ascii("delete ").bytes(d.key).crlf()
    case a: ArithRequest =>
      out.ascii(if a.increment then "incr " else "decr ").bytes(a.key).byte(' ').number(a.delta)
      out.crlf()
    case t: TouchRequest    => out.ascii("touch ").bytes(t.key).byte(' ').number(t.ttl).crlf()
    case m: MultiGetRequest => encodeGetLine(m, out)
    case _ =>
      if !encodeServer(r, out) then throw IllegalStateException(s"no classic encoding for $r")

  def accept(r: Request[?], reply: Reply): Boolean = r match
    case g: GetRequest =>
      reply.kind match
        case Kind.Value if g.hit == null =>
          if !reply.tokenIs(1, g.key) then unexpected(g, reply)
          g.hit = Hit(reply.data.nn, reply.tokenClientFlags(2), reply.tokenUnsigned(4))
          false
        case Kind.End           => g.done(if g.hit == null then Miss else g.hit.nn)
        case _ if reply.isError => g.failed(reply.toError)
        case _                  => unexpected(g, reply)
    case s: StoreRequest[?] =>
      reply.kind match
        case Kind.Stored        => s.answered(StoreResult.Stored)
        case Kind.NotStored     => s.answered(StoreResult.NotStored)
        case Kind.Exists        => s.answered(StoreResult.Exists)
        case Kind.NotFound      => s.answered(StoreResult.NotFound)
        case _ if reply.isError => s.failed(reply.toError)
        case _                  => unexpected(s, reply)
    case d: DeleteRequest =>
      reply.kind match
        case Kind.Deleted       => d.done(true)
        case Kind.NotFound      => d.done(false)
        case _ if reply.isError => d.failed(reply.toError)
        case _                  => unexpected(d, reply)
    case a: ArithRequest =>
      reply.kind match
        case Kind.Number        => a.done(Some(reply.tokenUnsigned(0)))
        case Kind.NotFound      => a.done(None)
        case _ if reply.isError => a.failed(reply.toError)
        case _                  => unexpected(a, reply)
    case t: TouchRequest =>
      reply.kind match
        case Kind.Touched       => t.done(true)
        case Kind.NotFound      => t.done(false)
        case _ if reply.isError => t.failed(reply.toError)
        case _                  => unexpected(t, reply)
    case m: MultiGetRequest => acceptGetLine(m, reply)
    case _                  => acceptServer(r, reply)
