package weft.memcached

import java.net.InetSocketAddress

/**
 * The client's nodes and the placement of keys on them: the configured [[Locator]] for the
 * key's own node and, in [[FailureMode.Redistribute]], a live node instead of a down one.
 * `KetamaGoldenSuite` and `ClusterSuite` check the placement.
 */
final private[memcached] class Cluster private (
    val nodes: IndexedSeq[Node],
    names: IndexedSeq[String],
    config: MemcachedConfig
):
  private val ring: KetamaRing | Null = config.locator match
    case Locator.Ketama(naming) if nodes.length > 1 => KetamaRing(names, naming)
    case _                                          => null

  /**
   * The node of `key`: its own node, or in redistribute mode, if that one is down, the first
   * live node of spymemcached's rehash sequence, else the next live node in list order.
   */
  def nodeFor(key: String): Node =
    if nodes.length == 1 then nodes(0)
    else
      val primary = nodes(locate(KetamaRing.hash(key)))
      if primary.isUp || config.failureMode == FailureMode.FailFast then primary
      else
        // spymemcached's rehash sequence: the key hashed again as "<try>" + key
        var t = 0
        var found: Node | Null = null
        while found == null && t < 7 do
          val n = nodes(locate(KetamaRing.hash(s"$t$key")))
          if n.isUp then found = n
          t += 1
        // past the sequence (all 7 tries on down nodes: about 1 key in 2,000 with one of three
        // nodes down), the next live node in list order (ClusterSuite's regression test)
        var i = 1
        while found == null && i < nodes.length do
          val n = nodes((nodes.indexOf(primary) + i) % nodes.length)
          if n.isUp then found = n
          i += 1
        if found == null then primary else found.nn

  private def locate(hash: Long): Int =
    val r = ring
    if r != null then r.locate(hash) else (hash % nodes.length).toInt

/** Building clusters. */
private[memcached] object Cluster:

  /**
   * The nodes of `config.servers`, host names resolved here, once.
   * @throws InvalidArgument
   *   for a malformed address or an unknown host
   */
  def apply(config: MemcachedConfig): Cluster =
    val parsed = config.servers.map(parse).toIndexedSeq
    val nodes = parsed.map((host, port, address) =>
      Node(s"$host:$port", address.getAddress.getHostAddress, port, config)
    )
    val names = config.locator match
      case Locator.Ketama(naming) => parsed.map((h, p, a) => naming.name(h, p, a))
      case Locator.Modula         => parsed.map((h, p, _) => s"$h:$p")
    new Cluster(nodes, names, config)

  /** `host:port` (IPv6 in brackets), resolved. */
  private def parse(server: String): (String, Int, InetSocketAddress) =
    val at = server.lastIndexOf(':')
    if at <= 0 then throw InvalidArgument(s"a server is host:port, got \"$server\"")
    val host = server.substring(0, at).stripPrefix("[").stripSuffix("]")
    val port = server.substring(at + 1).toIntOption.getOrElse(-1)
    if port <= 0 || port > 65535 then throw InvalidArgument(s"bad port in \"$server\"")
    val address = InetSocketAddress(host, port)
    if address.isUnresolved then throw InvalidArgument(s"unknown host in \"$server\"")
    (host, port, address)
