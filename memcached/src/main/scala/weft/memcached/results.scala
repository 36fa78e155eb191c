package weft.memcached

/** The result of a read: a hit with the stored bytes, client flags and CAS token, or a miss. */
sealed trait GetResult:

  /** The hit, if this is one. */
  def toOption: Option[Hit] = this match
    case h: Hit => Some(h)
    case Miss   => None

/**
 * A stored item.
 *
 * @param value
 *   the bytes exactly as stored (not copied: do not modify)
 * @param flags
 *   the 32-bit client flags stored with them
 * @param cas
 *   the item's CAS token (for [[MemcachedClient.cas]]); 0 when not asked for
 */
final class Hit(val value: Array[Byte], val flags: Int, val cas: Long) extends GetResult:

  /** The value decoded as UTF-8 (as [[Codec.utf8]] writes it). */
  def string: String = String(value, java.nio.charset.StandardCharsets.UTF_8)

  override def equals(other: Any): Boolean = other match
    case h: Hit => java.util.Arrays.equals(value, h.value) && flags == h.flags && cas == h.cas
    case _      => false

  override def hashCode: Int = java.util.Arrays.hashCode(value) * 31 + flags

  override def toString: String = s"Hit(${value.length} bytes, flags $flags, cas $cas)"

/** No item under the key. */
case object Miss extends GetResult

/** The outcome of a store (`set`, `add`, `replace`, `append`, `prepend`, `cas`). */
enum StoreResult:

  /** The value was stored. */
  case Stored

  /** Not stored: `add` found an item, `replace`/`append`/`prepend` found none. */
  case NotStored

  /** `cas`: the item changed since its token was read. */
  case Exists

  /** `cas`: no item under the key. */
  case NotFound

/**
 * The result of [[MemcachedClient.getMulti]]: the hits, and the keys whose node failed (in
 * fail-fast mode a node that is down fails only its own keys). A key in neither map missed.
 */
final case class MultiGetResult(hits: Map[String, Hit], failures: Map[String, MemcachedException]):

  /** The hits, or the first failure thrown. */
  def orThrow: Map[String, Hit] =
    failures.headOption match
      case Some((_, e)) => throw e
      case None         => hits
