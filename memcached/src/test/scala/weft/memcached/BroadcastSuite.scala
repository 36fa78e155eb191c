package weft.memcached

import java.util.concurrent.{CancellationException, CountDownLatch, TimeUnit}
import scala.concurrent.duration.*
import weft.{Async, Future, await}
import FakeServer.{line, send}
import TestSupport.*

/**
 * `flushAll`, `version` and `stats` go to every node: one node down never keeps the request
 * from the others, and the call fails (naming the down node) only after every node was tried.
 * A cancelled broadcast abandons the request of every node, not only the one it was awaiting.
 */
class BroadcastSuite extends munit.FunSuite, weft.testing.Deadlined:

  private def config(servers: Seq[MemcachedServer]) =
    MemcachedConfig(servers.map(_.address), deadline = 2.seconds, livenessTimeout = 1.second)

  test("regression: flushAll with the first node down still flushes the others"):
    MemcachedServer.withServers(3): servers =>
      Async.blocking:
        withClient(config(servers)): c =>
          val keys = (0 until 300).map(i => s"key$i")
          keys.foreach(k => c.set(k, b("v")))
          servers(0).kill()
          assert(awaitUntil(c.nodeStats(0).state != NodeState.Up), c.toString)
          val e = intercept[Unavailable](c.flushAll())
          assert(e.getMessage.contains(servers(0).address), e.getMessage)
          val live = keys.filter(k => c.nodeFor(k).counters.node != servers(0).address)
          assert(live.size > 100, live.size)
          for k <- live do assertEquals(c.get(k), Miss, s"$k on a live node was not flushed")
          // every node was asked: the live ones answered, the down one failed
          val versions = intercept[Unavailable](c.version())
          assert(versions.getMessage.contains(servers(0).address), versions.getMessage)
          intercept[Unavailable](c.stats())
          // the partial result: each node's outcome
          val byNode = c.versionByNode()
          assertEquals(byNode.keySet, servers.map(_.address).toSet)
          assert(byNode(servers(0).address).failed.get.isInstanceOf[Unavailable], byNode)
          assert(servers.drop(1).forall(s => byNode(s.address).isSuccess), byNode)
          val stats = c.statsByNode()
          assert(servers.drop(1).forall(s => stats(s.address).get.contains("pid")), stats)
          TestSupport.awaitSettled(c)
          assertEquals(c.nodeStats.map(_.inFlight), IndexedSeq(0, 0, 0))

  test("two nodes down: the first one's failure is thrown, the other's is suppressed in it"):
    MemcachedServer.withServers(3): servers =>
      Async.blocking:
        withClient(config(servers)): c =>
          servers(0).kill()
          servers(2).kill()
          assert(awaitUntil(c.nodeStats(0).state != NodeState.Up), c.toString)
          assert(awaitUntil(c.nodeStats(2).state != NodeState.Up), c.toString)
          val e = intercept[Unavailable](c.version())
          assert(e.getMessage.contains(servers(0).address), e.getMessage)
          assertEquals(
            e.getSuppressed.toSeq.map(_.getMessage.contains(servers(2).address)),
            Seq(true)
          )
          assert(c.versionByNode()(servers(1).address).isSuccess)

  test("every deadline a broadcast armed is cancelled, also when a later node is down"):
    MemcachedServer.withServers(3): servers =>
      Async.blocking:
        withClient(config(servers)): c =>
          servers(2).kill()
          assert(awaitUntil(c.nodeStats(2).state != NodeState.Up), c.toString)
          val scheduler = summon[Async].support.scheduler
          val before = scheduler.pendingCount
          for _ <- 0 until 50 do intercept[Unavailable](c.version(deadline = 1.hour))
          // two live nodes per call: a hundred one-hour timers if they were left armed
          val left = scheduler.pendingCount - before
          assert(left < 25, s"$left deadlines still pending after the calls returned")

  test("regression: a cancelled broadcast abandons every node's request"):
    Async.blocking:
      val release = CountDownLatch(1)
      // answers `version` only once the test releases it, `mn` at once
      val slow: FakeServer.Handler = c =>
        var l = line(c)
        while l != null do
          if l.nn == "version" then
            // no munit assert here: it locks the suite while it evaluates its condition, and
            // the test's own asserts would wait for this handler to be released
            if !release.await(20, TimeUnit.SECONDS) then
              throw IllegalStateException("timed out waiting for the release")
            send(c, "VERSION 1.6.0\r\n")
          else if l.nn == "mn" then send(c, "MN\r\n")
          l = line(c)
      FakeServer.withFake(slow): first =>
        FakeServer.withFake(slow): second =>
          val config = MemcachedConfig(
            Seq(first.address, second.address),
            deadline = 20.seconds,
            livenessTimeout = 30.seconds
          )
          withClient(config): c =>
            val ended = CountDownLatch(1)
            val call = Future:
              try c.versionByNode()
              finally ended.countDown()
            assert(awaitUntil(c.nodeStats.forall(_.inFlight == 1)), c.toString)
            call.cancel()
            intercept[CancellationException](call.await)
            // the future completes at the cancel; its body abandons the requests as it ends:
            // release the replies after that (a loaded machine once answered in between)
            assert(ended.await(20, TimeUnit.SECONDS), "the cancelled call did not end")
            release.countDown()
            // each node's reply arrives for a request its caller gave up: counted as late
            assert(awaitUntil(c.nodeStats.forall(_.lateReplies == 1)), c.toString)
            assert(c.versionByNode().values.forall(_.isSuccess), c.toString)
            TestSupport.awaitSettled(c)
            assertEquals(c.nodeStats.map(_.inFlight), IndexedSeq(0, 0))
