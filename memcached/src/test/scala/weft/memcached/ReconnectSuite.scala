package weft.memcached

import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import weft.Async
import TestSupport.*

/** Reconnection: exponential backoff with jitter, one attempt at a time, old sockets closed. */
class ReconnectSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("a server that closes every connection at once: attempts back off, one at a time"):
    Async.blocking:
      val open = AtomicInteger()
      val maxOpen = AtomicInteger()
      val flapping: FakeServer.Handler = _ =>
        maxOpen.accumulateAndGet(open.incrementAndGet(), math.max)
        Thread.sleep(5)
        open.decrementAndGet()
      FakeServer.withFake(flapping): fake =>
        val config = MemcachedConfig(
          Seq(fake.address),
          reconnectBase = 20.millis,
          reconnectMax = 400.millis
        )
        withClient(config): c =>
          Thread.sleep(2000)
          val attempts = fake.accepted.get
          // without backoff: hundreds of attempts in 2 s; with it (10-20, 20-40, ... ms, capped
          // at 200-400 ms): about ten
          assert(attempts >= 3 && attempts <= 20, s"$attempts attempts in 2 s")
          assertEquals(maxOpen.get, 1, "two connections open at once")
          val s = c.nodeStats.head
          assert(s.reconnects >= 2, s.toString)
          assert(s.state == NodeState.Down || s.state == NodeState.Up, s.toString)

  test("after kill -9 and restart, one connection again and none leaked"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        val config =
          MemcachedConfig(Seq(server.address), reconnectBase = 10.millis, reconnectMax = 100.millis)
        withClient(config): c =>
          c.set("k", b("v"))
          for _ <- 0 until 3 do
            server.kill()
            server.restart()
            awaitWorking(c)
            assertEquals(server.stat("curr_connections").toInt - 1, 1)
          assertEquals(c.nodeStats.head.reconnects, 3L)
        assertEquals(server.awaitNoClientConnections(), 0)
