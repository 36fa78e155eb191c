package weft.memcached

import Reply.Kind
import Wire.*

/**
 * The meta protocol (memcached 1.6 and later). Every line carries an opaque (`O<n>`), reads ask
 * for the key back (`k`), and a reply other than an error must carry its request's opaque, so a
 * value is checked against both before it is handed to a caller. Server commands and multi-get
 * chunks of ASCII keys use the classic text (see [[Wire]]).
 */
private[memcached] object MetaWire extends Wire:

  def encode(r: Request[?], out: ByteSink): Unit = r match
    case g: GetRequest =>
      out.ascii("mg ").bytes(g.key).ascii(" v f k")
      if g.withCas then out.ascii(" c")
      if g.touchTtl >= 0 then out.flag('T', g.touchTtl)
      end(out, g.opaque, g.binary)
    case s: StoreRequest[?] =>
      out.ascii("ms ").bytes(s.key).byte(' ').number(s.value.length)
      if s.flags != 0 then out.flag('F', s.flags & 0xffffffffL)
      if s.ttl != 0 then out.flag('T', s.ttl)
      if s.cas != 0 then out.ascii(" C").ascii(java.lang.Long.toUnsignedString(s.cas))
      if s.mode != StoreMode.Set then out.ascii(" M").byte(s.mode.letter)
      end(out, s.opaque, s.binary)
      out.bytes(s.value).crlf()
    case d: DeleteRequest =>
      out.ascii("md ").bytes(d.key)
      end(out, d.opaque, d.binary)
    case a: ArithRequest =>
      out.ascii("ma ").bytes(a.key).flag('D', a.delta)
      if !a.increment then out.ascii(" MD")
      if a.initial >= 0 then out.flag('N', a.ttl).flag('J', a.initial)
      out.ascii(" v")
      end(out, a.opaque, a.binary)
    case t: TouchRequest =>
      out.ascii("mg ").bytes(t.key).flag('T', t.ttl)
      end(out, t.opaque, t.binary)
    case m: MultiGetRequest =>
      if m.binary then
        var i = 0
        while i < m.encoded.length do
          out.ascii("mg ").bytes(m.encoded(i)).ascii(" v f k q")
          end(out, m.opaque + i, binary = true)
          i += 1
        out.ascii("mn").crlf()
      else encodeGetLine(m, out)
    case _ =>
      if !encodeServer(r, out) then throw IllegalStateException(s"no meta encoding for $r")

  def accept(r: Request[?], reply: Reply): Boolean = r match
    case g: GetRequest =>
      checkOpaque(g, reply)
      reply.kind match
        case Kind.VA =>
          if !reply.flagIs('k', g.key) then unexpected(g, reply)
          g.done(Hit(reply.data.nn, reply.flagClientFlags('f'), reply.flagUnsigned('c')))
        case Kind.EN            => g.done(Miss)
        case _ if reply.isError => g.failed(reply.toError)
        case _                  => unexpected(g, reply)
    case s: StoreRequest[?] =>
      checkOpaque(s, reply)
      reply.kind match
        case Kind.HD            => s.answered(StoreResult.Stored)
        case Kind.NS            => s.answered(StoreResult.NotStored)
        case Kind.EX            => s.answered(StoreResult.Exists)
        case Kind.NF            => s.answered(StoreResult.NotFound)
        case _ if reply.isError => s.failed(reply.toError)
        case _                  => unexpected(s, reply)
    case d: DeleteRequest =>
      checkOpaque(d, reply)
      reply.kind match
        case Kind.HD            => d.done(true)
        case Kind.NF            => d.done(false)
        case _ if reply.isError => d.failed(reply.toError)
        case _                  => unexpected(d, reply)
    case a: ArithRequest =>
      checkOpaque(a, reply)
      reply.kind match
        case Kind.VA =>
          val d = reply.data.nn
          a.done(Some(Reply.unsigned(d, 0, d.length)))
        case Kind.NF            => a.done(None)
        case _ if reply.isError => a.failed(reply.toError)
        case _                  => unexpected(a, reply)
    case t: TouchRequest =>
      checkOpaque(t, reply)
      reply.kind match
        case Kind.HD            => t.done(true)
        case Kind.EN            => t.done(false)
        case _ if reply.isError => t.failed(reply.toError)
        case _                  => unexpected(t, reply)
    case m: MultiGetRequest => if m.binary then acceptQuiet(m, reply) else acceptGetLine(m, reply)
    case _                  => acceptServer(r, reply)

  /** A reply to a chunk of quiet `mg` lines: hits (`VA`), errors, then `MN`. */
  private def acceptQuiet(m: MultiGetRequest, reply: Reply): Boolean = reply.kind match
    case Kind.VA =>
      // the chunk's opaques may wrap around 2^32: the index is the unsigned difference
      val i = if reply.opaque < 0 then -1L else (reply.opaque - m.opaque) & 0xffffffffL
      if i < 0 || i >= m.keys.length || !reply.flagIs('k', m.encoded(i.toInt)) then
        unexpected(m, reply)
      m.add(i.toInt, Hit(reply.data.nn, reply.flagClientFlags('f'), 0L))
    case Kind.MN => m.finish()
    case _ if reply.isError =>
      if m.error == null then m.error = reply.toError
      false
    case _ => unexpected(m, reply)

  /** A reply other than an error must carry the request's opaque. */
  private def checkOpaque(r: Request[?], reply: Reply): Unit =
    if !reply.isError && reply.opaque != (r.opaque & 0xffffffffL) then unexpected(r, reply)

  /** Ends a meta line: the opaque token (unsigned), `b` for base64 keys, CRLF. */
  private def end(out: ByteSink, opaque: Int, binary: Boolean): Unit =
    out.byte(' ').byte('O').number(opaque & 0xffffffffL)
    if binary then out.ascii(" b")
    val _ = out.crlf()
