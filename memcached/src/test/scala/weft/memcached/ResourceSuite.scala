package weft.memcached

import scala.concurrent.duration.*
import weft.{Async, Future, await}
import TestSupport.*

/** The client is a resource: closing fails pending calls and joins its fibers. */
class ResourceSuite extends munit.FunSuite, weft.testing.Deadlined:

  private val silent: FakeServer.Handler = conn =>
    while FakeServer.line(conn) != null do ()

  test("close fails pending calls with ClientClosed, closes the socket, refuses later calls"):
    Async.blocking:
      FakeServer.withFake(silent): fake =>
        val c = MemcachedClient.open(
          MemcachedConfig(Seq(fake.address), deadline = 30.seconds, livenessTimeout = 30.seconds)
        )
        val calls = (0 until 100).map(i => Future(c.get(s"k$i")))
        val deadline = System.nanoTime() + 5_000_000_000L
        while c.nodeStats.head.inFlight < 100 && System.nanoTime() < deadline do Thread.sleep(5)
        assertEquals(c.nodeStats.head.inFlight, 100)
        c.close()
        for f <- calls do
          val e = intercept[ClientClosed](f.await)
          assert(!e.retriable)
        intercept[ClientClosed](c.get("k"))
        assertEquals(c.nodeStats.head.state, NodeState.Closed)
        assertEquals(c.nodeStats.head.inFlight, 0, c.nodeStats.head.toString)
        // the fake's accept fiber may count the connection after the client used it
        assert(awaitUntil(fake.accepted.get >= 1))
        assertEquals(fake.accepted.get, 1, "one connection, no reconnection")

  test("regression: close fails a request the writer holds while the window is full"):
    Async.blocking:
      FakeServer.withFake(silent): fake =>
        val c = MemcachedClient.open(
          MemcachedConfig(
            Seq(fake.address),
            maxInFlight = 1,
            deadline = 5.seconds,
            livenessTimeout = 30.seconds
          )
        )
        val a = Future(c.get("a"))
        val deadline = System.nanoTime() + 5_000_000_000L
        while c.nodeStats.head.inFlight < 1 && System.nanoTime() < deadline do Thread.sleep(5)
        val held = Future(c.get("b")) // taken by the writer, which waits for a window slot
        while c.nodeStats.head.queued > 0 || !held.poll().isEmpty && System.nanoTime() < deadline do
          Thread.sleep(5)
        Thread.sleep(50)
        assertEquals((c.nodeStats.head.inFlight, c.nodeStats.head.queued), (1, 0))
        c.close()
        intercept[ClientClosed](a.await)
        intercept[ClientClosed](held.await)

  test("Resource.use: nothing of the client outlives the scope"):
    MemcachedServer.withServer(): server =>
      val before = Thread.activeCount()
      Async.blocking:
        MemcachedClient.resource(MemcachedConfig(server.address)).use: c =>
          c.set("k", b("v"))
          assertEquals(server.stat("curr_connections").toInt - 1, 1)
      assertEquals(server.awaitNoClientConnections(), 0)
      assert(Thread.activeCount() <= before + 1, s"${Thread.activeCount()} threads, $before before")

  test("regression: a call right after open finds the connection (300 opens)"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        for i <- 0 until 300 do
          withClient(MemcachedConfig(server.address)): c =>
            assertEquals(c.get("k"), Miss, s"open number $i")

  test("host names are resolved at open: localhost works, an unknown host fails at once"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(MemcachedConfig(s"localhost:${server.port}")): c =>
          c.set("k", b("v"))
          assertEquals(c.get("k").toOption.map(_.string), Some("v"))
          assertEquals(c.nodeStats.head.node, s"localhost:${server.port}")
        intercept[InvalidArgument](
          MemcachedClient.open(MemcachedConfig("no-such-host.invalid:11211"))
        )
        intercept[InvalidArgument](MemcachedClient.open(MemcachedConfig("127.0.0.1")))

  test("an unreachable node: the client opens, calls fail with Unavailable"):
    Async.blocking:
      val port = MemcachedServer.freePort()
      withClient(MemcachedConfig(Seq(s"127.0.0.1:$port"))): c =>
        val e = intercept[Unavailable](c.get("k"))
        assert(e.retriable)
        assertEquals(c.nodeStats.head.state, NodeState.Down)
        assert(c.toString.contains("Down"), c.toString)

  test("getMulti after close throws ClientClosed, as every other call does"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        val c = MemcachedClient.open(MemcachedConfig(server.address))
        c.close()
        intercept[ClientClosed](c.getMulti(Seq("a", "b")))
        intercept[ClientClosed](c.getMulti(Nil))
        intercept[ClientClosed](c.version())

  test("regression: a client whose opening scope ended without close fails with ClientClosed"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        var leaked: MemcachedClient | Null = null
        Async.group:
          val c = MemcachedClient.open(MemcachedConfig(server.address))
          c.set("k", b("v"))
          leaked = c
        val c = leaked.nn
        val e = intercept[ClientClosed](c.get("k"))
        assert(!e.retriable)
        intercept[ClientClosed](c.getMulti(Seq("k")))
        Future(intercept[ClientClosed](c.set("k", b("v")))).await // a virtual caller too
        assertEquals(c.nodeStats.head.state, NodeState.Closed)
        assertEquals(server.awaitNoClientConnections(), 0)
