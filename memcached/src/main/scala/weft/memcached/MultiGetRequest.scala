package weft.memcached

/**
 * A chunk of a multi-key read: one classic `get k1 k2 ...` line ended by `END`, in both modes;
 * with base64 keys (meta only) a quiet `mg <key> b v f k O<n> q` per key then `mn` (misses are
 * quiet, `MN` ends the chunk). The server parses one `get` line of n keys for much less than n
 * meta lines (`memcached-multiget-50` shows its CPU per op), and every `VALUE` line names its
 * key: a hit is accepted only for a key of this chunk, at most once, and the chunk is complete
 * only at its own end marker, so a reply can still never reach another request. A server error
 * in place of `END` fails the chunk; in a meta chunk it fails it once `MN` arrives. The wires
 * decide which reply is which; this class keeps the hits.
 */
final private[memcached] class MultiGetRequest(
    val keys: IndexedSeq[String],
    val encoded: IndexedSeq[Array[Byte]],
    val binary: Boolean
) extends Request[Map[String, Hit]]:
  private val hits = java.util.HashMap[String, Hit](keys.length * 2)

  /** A server error read before the chunk's end marker (meta chunks: reported at `MN`). */
  var error: MemcachedException | Null = null
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

  /**
   * The index of the key a `VALUE` reply names (its token 1), or -1. The server answers a get
   * line's keys in their order, so the search goes on from the last hit, comparing bytes, and
   * needs no map; a key found behind it (a server that reorders) is looked up in the map.
   */
  def indexOf(reply: Reply): Int =
    var i = next
    while i < keys.length && !reply.tokenIs(1, encoded(i)) do i += 1
    if i < keys.length then
      next = i + 1
      i
    else if reply.tokenCount < 2 then -1
    else
      val j = byText.get(reply.tokens(1))
      if j == null then -1 else j

  /** The key `i` as the server writes it back (its bytes read as ISO-8859-1). */
  def text(i: Int): String =
    if keys(i).length == encoded(i).length then keys(i) else Wire.keyText(encoded(i))

  /** Adds the hit of key `i`; `false` (the chunk goes on). A second value for a key desyncs. */
  def add(i: Int, hit: Hit): Boolean =
    if hits.putIfAbsent(keys(i), hit) != null then
      throw ProtocolDesync(s"two values for key ${keys(i)} in one multi-get")
    false

  /** Completes at the end marker: the hits, or the error read before it. */
  def finish(): Boolean =
    val e = error
    if e != null then failed(e) else done(HitMap(hits))

  override def toString: String = s"multi-get of ${keys.length} keys"
