package weft.memcached

import java.net.InetSocketAddress
import scala.concurrent.duration.*
import weft.Async
import TestSupport.*

/** Several real servers: placement, multigets split per node, the two failure modes. */
class ClusterSuite extends munit.FunSuite, weft.testing.Deadlined:

  private def config(servers: Seq[MemcachedServer], mode: FailureMode = FailureMode.FailFast) =
    MemcachedConfig(
      servers.map(_.address),
      failureMode = mode,
      deadline = 2.seconds,
      livenessTimeout = 1.second
    )

  private def single(server: MemcachedServer) = MemcachedConfig(server.address)

  private val keys = (0 until 300).map(i => s"key$i")

  /** Stores `v-<key>` under every key. */
  private def fill(c: MemcachedClient)(using Async): Unit =
    keys.foreach(k => c.set(k, b(s"v-$k")))

  /** Waits until the client sees node `i` down. */
  private def awaitDown(c: MemcachedClient, i: Int): Unit =
    assert(awaitUntil(c.nodeStats(i).state != NodeState.Up), c.toString)

  test("each key is stored only on its Ketama node; a multiget spans the nodes"):
    MemcachedServer.withServers(3): servers =>
      Async.blocking:
        withClient(config(servers)): c =>
          fill(c)
          val owners = keys.map(c.nodeFor).map(n => n.counters.node)
          for (server, i) <- servers.zipWithIndex do
            withClient(single(server)): s =>
              val here = s.getMulti(keys).hits.keySet
              val expected = keys.zip(owners).collect { case (k, o) if o == server.address => k }
              assertEquals(here, expected.toSet, s"server $i")
              assert(here.size > 50, s"server $i holds only ${here.size} keys")
          val all = c.getMulti(keys)
          assertEquals(all.failures, Map.empty)
          assertEquals(all.hits.view.mapValues(_.string).toMap, keys.map(k => k -> s"v-$k").toMap)

  test("fail-fast: a killed node fails only its own keys (Unavailable), others unaffected"):
    MemcachedServer.withServers(3): servers =>
      Async.blocking:
        withClient(config(servers)): c =>
          fill(c)
          servers(1).kill()
          awaitDown(c, 1)
          val dead = servers(1).address
          for k <- keys do
            if c.nodeFor(k).counters.node == dead then intercept[Unavailable](c.get(k))
            else assertEquals(c.get(k).toOption.map(_.string), Some(s"v-$k"))
          val multi = c.getMulti(keys)
          assertEquals(multi.failures.keySet, keys.filter(c.nodeFor(_).counters.node == dead).toSet)
          assertEquals(multi.hits.size + multi.failures.size, 300)

  test("a stopped (SIGSTOP) node: a multiget across the nodes returns by its deadline"):
    MemcachedServer.withServers(3): servers =>
      Async.blocking:
        withClient(config(servers)): c =>
          fill(c)
          servers(2).pause()
          try
            val multi = c.getMulti(keys, deadline = 500.millis)
            val stopped = keys.filter(c.nodeFor(_).counters.node == servers(2).address).toSet
            assertEquals(multi.hits.keySet, keys.toSet -- stopped)
            assertEquals(multi.failures.keySet, stopped)
            // the stopped node's keys failed by the call's deadline, before the liveness limit
            // (1 s) could close its connection
            assert(multi.failures.values.forall(_.isInstanceOf[Timeout]), multi.failures.values)
          finally servers(2).resume()

  test("redistribute: with a node killed, its keys go to the next live node"):
    MemcachedServer.withServers(3): servers =>
      Async.blocking:
        withClient(config(servers, FailureMode.Redistribute)): c =>
          servers(0).kill()
          awaitDown(c, 0)
          fill(c)
          keys.foreach(k => assertEquals(c.get(k).toOption.map(_.string), Some(s"v-$k")))
          assert(keys.forall(k => c.nodeFor(k).counters.node != servers(0).address))
          // regression: a key whose whole rehash sequence (7 tries) lands on the dead node
          // still finds a live one (1 key in about 2,000 on three nodes)
          val ring = KetamaRing(
            servers.map(s =>
              NodeNaming.Spymemcached.name(
                "127.0.0.1",
                s.port,
                InetSocketAddress("127.0.0.1", s.port)
              )
            ),
            NodeNaming.Spymemcached
          )
          def onDead(k: String) = ring.locate(KetamaRing.hash(k)) == 0
          val unlucky = Iterator.from(0).map(i => s"unlucky$i").take(1_000_000)
            .find(k => onDead(k) && (0 until 7).forall(t => onDead(s"$t$k")))
            .get
          c.set(unlucky, b("v"))
          assertEquals(c.get(unlucky).toOption.map(_.string), Some("v"))

  test("redistribute, documented: a node's second outage reads the value parked in its first"):
    MemcachedServer.withServers(2): servers =>
      Async.blocking:
        withClient(config(servers, FailureMode.Redistribute)): c =>
          val k = keys.find(c.nodeFor(_).counters.node == servers(0).address).get
          servers(0).kill()
          awaitDown(c, 0)
          c.set(k, b("first outage")) // parked on the other node
          servers(0).restart()
          assert(awaitUntil(c.nodeStats(0).state == NodeState.Up), c.toString)
          c.set(k, b("newer")) // on the key's own node again
          assertEquals(c.get(k).toOption.map(_.string), Some("newer"))
          servers(0).kill()
          awaitDown(c, 0)
          // what ADR 0020 documents: the fallback still holds the value of the first outage
          assertEquals(c.get(k).toOption.map(_.string), Some("first outage"))
