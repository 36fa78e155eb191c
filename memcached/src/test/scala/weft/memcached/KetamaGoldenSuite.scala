package weft.memcached

import java.net.InetSocketAddress
import scala.jdk.CollectionConverters.*
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator
import net.spy.memcached.{DefaultHashAlgorithm, KetamaNodeLocator, MemcachedNode}

/**
 * Key placement against the Java clients' own locators (their jars are test dependencies):
 * spymemcached's `KetamaNodeLocator(KETAMA_HASH)` and xmemcached's
 * `KetamaMemcachedSessionLocator`, 10,000 keys per node list, 100% agreement.
 */
class KetamaGoldenSuite extends munit.FunSuite, weft.testing.Deadlined:

  private val keys =
    (0 until 10_000).map(i => if i % 3 == 0 then s"key$i" else s"user:$i:profile-ü")

  /** A stand-in for a peer's node interface that answers only its address. */
  private def proxy[T](cls: Class[T], address: InetSocketAddress, method: String): T =
    java.lang.reflect.Proxy
      .newProxyInstance(
        getClass.getClassLoader,
        Array(cls),
        (self, m, args) =>
          m.getName match
            case `method`    => address
            case "toString"  => s"node($address)"
            case "hashCode"  => Integer.valueOf(System.identityHashCode(self))
            case "equals"    => java.lang.Boolean.valueOf(self eq args(0))
            case "getWeight" => Integer.valueOf(1)
            case _ =>
              m.getReturnType match
                case java.lang.Boolean.TYPE => java.lang.Boolean.FALSE
                case java.lang.Integer.TYPE => Integer.valueOf(0)
                case java.lang.Long.TYPE    => java.lang.Long.valueOf(0L)
                case _                      => null
      )
      .asInstanceOf[T]

  private def ours(servers: Seq[String], naming: NodeNaming): Seq[Int] =
    val names = servers.map: s =>
      val Array(h, p) = s.split(':')
      naming.name(h, p.toInt, InetSocketAddress(h, p.toInt))
    val ring = KetamaRing(names.toIndexedSeq, naming)
    keys.map(k => ring.locate(KetamaRing.hash(k)))

  private def addresses(servers: Seq[String]) = servers.map: s =>
    val Array(h, p) = s.split(':')
    InetSocketAddress(h, p.toInt)

  private def spymemcached(servers: Seq[String]): Seq[Int] =
    val addrs = addresses(servers)
    val nodes = addrs.map(a => proxy(classOf[MemcachedNode], a, "getSocketAddress"))
    val locator = KetamaNodeLocator(nodes.asJava, DefaultHashAlgorithm.KETAMA_HASH)
    keys.map(k => nodes.indexOf(locator.getPrimary(k)))

  private def xmemcached(servers: Seq[String]): Seq[Int] =
    val addrs = addresses(servers)
    val sessions =
      addrs.map(a =>
        proxy(classOf[com.google.code.yanf4j.core.Session], a, "getRemoteSocketAddress")
      )
    val locator = KetamaMemcachedSessionLocator()
    locator.updateSessions(sessions.asJava)
    keys.map(k => sessions.indexOf(locator.getSessionByKey(k)))

  private val lists = Seq(
    "three IP literals" -> Seq("127.0.0.1:11211", "127.0.0.1:11212", "127.0.0.1:11213"),
    "five other addresses" -> (1 to 5).map(i => s"10.0.0.$i:11211"),
    "host names" -> Seq("localhost:11211", "localhost:11212"),
    "a node added" -> Seq(
      "127.0.0.1:11211",
      "127.0.0.1:11212",
      "127.0.0.1:11213",
      "127.0.0.1:11214"
    ),
    "a node removed" -> Seq("127.0.0.1:11211", "127.0.0.1:11213"),
    "one node" -> Seq("192.168.1.20:11211")
  )

  for (name, servers) <- lists do
    test(s"spymemcached placement, $name: 10,000 keys, 100% agreement"):
      val theirs = spymemcached(servers)
      assertEquals(theirs.toSet, servers.indices.toSet, "every node gets keys")
      assertEquals(ours(servers, NodeNaming.Spymemcached), theirs)

    test(s"xmemcached placement, $name: 10,000 keys, 100% agreement"):
      val theirs = xmemcached(servers)
      assertEquals(theirs.toSet, servers.indices.toSet, "every node gets keys")
      assertEquals(ours(servers, NodeNaming.Xmemcached), theirs)

  test("the two clients disagree (different node names): presets are not interchangeable"):
    val servers = lists.head._2
    val same = spymemcached(servers).zip(xmemcached(servers)).count(_ == _)
    assert(same < 8000, s"$same of 10000 keys agree")

  test("adding a 4th node to 3 moves about a quarter of the keys"):
    val three = ours(lists.head._2, NodeNaming.Spymemcached)
    val four = ours(lists(3)._2, NodeNaming.Spymemcached)
    val moved = three.zip(four).count(_ != _)
    assert(moved > 1500 && moved < 3500, s"$moved of 10000 keys moved")
    assert(three.zip(four).forall((a, b) => a == b || b == 3), "a moved key goes to the new node")

  test("modula and single-node locators"):
    val three = lists.head._2
    val modula = Cluster(MemcachedConfig(three, locator = Locator.Modula))
    for k <- keys.take(1000) do
      assertEquals(modula.nodeFor(k).counters.node, three((KetamaRing.hash(k) % 3).toInt))
    val four = Cluster(MemcachedConfig(lists(3)._2, locator = Locator.Modula))
    val moved = keys.count(k => modula.nodeFor(k).counters.node != four.nodeFor(k).counters.node)
    assert(moved > 6000, s"modula moved only $moved of 10000 keys") // most keys move
    val one = Cluster(MemcachedConfig(three.head))
    assert(keys.forall(one.nodeFor(_).counters.node == three.head))

  test("libmemcached and host:port names: as configured, host alone on port 11211"):
    val a = InetSocketAddress("127.0.0.1", 11211)
    val b = InetSocketAddress("127.0.0.1", 11212)
    assertEquals(NodeNaming.LibmemcachedHost.name("cache1", 11211, a), "cache1")
    assertEquals(NodeNaming.LibmemcachedHost.name("cache1", 11212, b), "cache1:11212")
    assertEquals(NodeNaming.HostPort.name("cache1", 11211, a), "cache1:11211")
    assertEquals(NodeNaming.Spymemcached.name("127.0.0.1", 11211, a), "127.0.0.1:11211")
    assertEquals(NodeNaming.Xmemcached.name("127.0.0.1", 11211, a), "/127.0.0.1:11211")
    // the names decide placement: two presets that name nodes differently place keys differently
    val hosts = IndexedSeq("cache1", "cache2", "cache3")
    val lib = KetamaRing(hosts, NodeNaming.LibmemcachedHost)
    val plain = KetamaRing(hosts.map(_ + ":11211"), NodeNaming.HostPort)
    val keys = (0 until 1000).map(i => KetamaRing.hash(s"key$i"))
    assert(keys.exists(h => lib.locate(h) != plain.locate(h)))
