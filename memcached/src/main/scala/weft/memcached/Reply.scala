package weft.memcached

/**
 * One reply read from a server: its line split into tokens (`tokens(0)` is the code) and, for
 * `VA` and `VALUE`, the data block.
 */
final private[memcached] class Reply(
    val kind: Reply.Kind,
    val tokens: Array[String],
    val data: Array[Byte] | Null
):

  /** Index of the first meta flag token: after the size for `VA`, after the code otherwise. */
  private def firstFlag: Int = if kind == Reply.Kind.VA then 2 else 1

  /** The token of meta return flag `c` (without the letter), or `null` if absent. */
  def flag(c: Char): String | Null =
    var i = firstFlag
    while i < tokens.length do
      val t = tokens(i)
      if t.nonEmpty && t.charAt(0) == c then return t.substring(1)
      i += 1
    null

  /** Whether the meta flag `c` is present. */
  def hasFlag(c: Char): Boolean = flag(c) != null

  /** The opaque token (`O` flag) as a number, or -1 if absent or not a number. */
  def opaque: Long =
    val o = flag('O')
    if o == null then -1L
    else
      try java.lang.Long.parseLong(o)
      catch case _: NumberFormatException => -1L

  /** Whether this is `ERROR`, `CLIENT_ERROR` or `SERVER_ERROR`. */
  def isError: Boolean =
    kind == Reply.Kind.Error || kind == Reply.Kind.ClientError || kind == Reply.Kind.ServerError

  /** The text after the code (an error's message, a version). */
  def rest: String = tokens.drop(1).mkString(" ")

  /** The typed error of an error reply. */
  def toError: MemcachedException = kind match
    case Reply.Kind.ServerError => ServerError(s"SERVER_ERROR $rest")
    case Reply.Kind.ClientError => ClientError(s"CLIENT_ERROR $rest")
    case _                      => ClientError("ERROR (the server does not know the command)")

  override def toString: String =
    val d = if data == null then "" else s" +${data.nn.length} bytes"
    Validate.printable(tokens.mkString(" ")) + d

/** Reply kinds. */
private[memcached] object Reply:

  /** What a reply line starts with. */
  enum Kind:
    case VA, HD, EN, NS, EX, NF, MN
    case Value, End, Stored, NotStored, Exists, NotFound, Deleted, Touched, Ok, Version, Stat
    case Number, Error, ClientError, ServerError

  /** The kind of a reply code, or `null` for an unknown one. */
  def kindOf(code: String): Kind | Null = code match
    case "VA"           => Kind.VA
    case "HD"           => Kind.HD
    case "EN"           => Kind.EN
    case "NS"           => Kind.NS
    case "EX"           => Kind.EX
    case "NF"           => Kind.NF
    case "MN"           => Kind.MN
    case "VALUE"        => Kind.Value
    case "END"          => Kind.End
    case "STORED"       => Kind.Stored
    case "NOT_STORED"   => Kind.NotStored
    case "EXISTS"       => Kind.Exists
    case "NOT_FOUND"    => Kind.NotFound
    case "DELETED"      => Kind.Deleted
    case "TOUCHED"      => Kind.Touched
    case "OK"           => Kind.Ok
    case "VERSION"      => Kind.Version
    case "STAT"         => Kind.Stat
    case "ERROR"        => Kind.Error
    case "CLIENT_ERROR" => Kind.ClientError
    case "SERVER_ERROR" => Kind.ServerError
    case _ =>
      if code.nonEmpty && code.length <= 20 && code.forall(c => c >= '0' && c <= '9') then
        Kind.Number
      else null
