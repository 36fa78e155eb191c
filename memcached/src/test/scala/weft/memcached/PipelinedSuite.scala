package weft.memcached

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import java.util.concurrent.locks.LockSupport
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import scala.util.{Failure, Random, Success}
import weft.{Async, Future, await}
import TestSupport.*

/**
 * `client.pipelined`: calls that return a future at once, in call order on the connection, with
 * the direct calls' outcomes and ADR 0005's rules for giving up.
 */
class PipelinedSuite extends munit.FunSuite, weft.testing.Deadlined:

  override def testDeadlineSeconds: Int = 120

  private def onServer[T](protocol: Protocol)(body: MemcachedClient => Async ?=> T): T =
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(MemcachedConfig(Seq(server.address), protocol = protocol))(c => body(c))

  /** Runs `body` on a new virtual thread and returns its result (a virtual-thread caller). */
  private def onVirtualThread[T](body: => T): T =
    val out = java.util.concurrent.CompletableFuture[T]()
    Thread.ofVirtual().start(() =>
      try out.complete(body)
      catch case t: Throwable => out.completeExceptionally(t)
    )
    try out.get()
    catch case e: java.util.concurrent.ExecutionException => throw e.getCause

  private def readsBackInOrder(c: MemcachedClient)(using Async): Unit =
    // distinct keys: each get is sent right behind its set, never awaited in between
    val pairs = (0 until 500).map: i =>
      (c.pipelined.set(s"k$i", b(s"v$i")), c.pipelined.get(s"k$i"))
    // one key written again and again: every get sees the set just before it
    val same = (0 until 200).map: i =>
      (c.pipelined.set("same", b(s"s$i")), c.pipelined.get("same"))
    for ((set, get), i) <- pairs.zipWithIndex do
      set.await
      assertEquals(get.await.toOption.map(_.string), Some(s"v$i"))
    for ((set, get), i) <- same.zipWithIndex do
      set.await
      assertEquals(get.await.toOption.map(_.string), Some(s"s$i"), s"get number $i")

  for protocol <- Protocol.values do
    test(s"$protocol: a get sent right behind a set reads what it stored (platform caller)"):
      onServer(protocol)(c => readsBackInOrder(c))

  test("a get sent right behind a set reads what it stored (virtual-thread caller)"):
    onVirtualThread(onServer(Protocol.Meta)(c => readsBackInOrder(c)))

  for protocol <- Protocol.values do
    test(s"$protocol: every pipelined call completes with the direct call's result"):
      onServer(protocol): c =>
        val p = c.pipelined
        assertEquals(p.get("k").await, Miss)
        p.set("k", b("v1"), flags = 7).await
        assertEquals(p.get("k").await.toOption.map(h => (h.string, h.flags)), Some(("v1", 7)))
        assertEquals(p.add("k", b("x")).await, StoreResult.NotStored)
        assertEquals(p.add("k2", b("x")).await, StoreResult.Stored)
        assertEquals(p.replace("nope", b("x")).await, StoreResult.NotStored)
        assertEquals(p.replace("k", b("v2")).await, StoreResult.Stored)
        assertEquals(p.append("k", b(">")).await, StoreResult.Stored)
        assertEquals(p.prepend("k", b("<")).await, StoreResult.Stored)
        val token = p.gets("k").await.toOption.get.cas
        assert(token != 0L)
        assertEquals(p.cas("k", b("c"), token + 1).await, StoreResult.Exists)
        assertEquals(p.cas("k", b("c"), token).await, StoreResult.Stored)
        assertEquals(p.getAndTouch("k", 60.seconds).await.toOption.map(_.string), Some("c"))
        assert(p.touch("k", 60.seconds).await)
        assert(!p.touch("nope", 60.seconds).await)
        assertEquals(p.incr("n", 1).await, None)
        p.set("n", b("10")).await
        assertEquals(p.incr("n", 5).await, Some(15L))
        assertEquals(p.decr("n", 20).await, Some(0L))
        assert(p.delete("k").await)
        assert(!p.delete("k").await)

  test("bad arguments throw at the call; a closed client fails the future"):
    onServer(Protocol.Meta): c =>
      intercept[InvalidKey](c.pipelined.get("has space"))
      intercept[InvalidArgument](c.pipelined.set("k", b("v"), ttl = (-1).seconds))
      intercept[InvalidArgument](c.pipelined.cas("k", b("v"), 0L))
      intercept[InvalidArgument](c.pipelined.set("k", null))
      c.close()
      val f = c.pipelined.get("k") // no throw: the refusal is the future's
      intercept[ClientClosed](f.await)
      intercept[ClientClosed](c.pipelined.set("k", b("v")).await)

  test("a node that is down fails the future with Unavailable, not the call"):
    Async.blocking:
      val port = MemcachedServer.freePort()
      withClient(MemcachedConfig(Seq(s"127.0.0.1:$port"))): c =>
        val f = c.pipelined.get("k") // the refusal is the future's: no throw here
        intercept[Unavailable](f.await)
        // a multi-get's chunk refused by its node fails its keys, not the call
        val r = c.getMulti(Seq("a", "b"))
        assertEquals(r.failures.keySet, Set("a", "b"))
        assert(r.failures.values.forall(_.isInstanceOf[Unavailable]), r.toString)

  test("a full queue fails the future with Overloaded, not the call"):
    onHeldServer(_.copy(maxQueued = 1)): (c, h) =>
      val a = c.pipelined.get("a")
      assert(awaitUntil(c.nodeStats.head.inFlight == 1), c.toString)
      val b1 = c.pipelined.get("b") // held by the writer or queued
      assert(awaitUntil(c.nodeStats.head.queued == 0), c.toString)
      val c1 = c.pipelined.get("c") // queued: the queue is full
      val d1 = c.pipelined.get("d") // refused
      intercept[Overloaded](d1.await)
      h.release.countDown()
      for f <- Seq(a, b1, c1) do assertEquals(f.await.toOption.map(_.string), Some("v"))

  test("a call's own timer is cancelled when its reply completes it"):
    onServer(Protocol.Meta): c =>
      val scheduler = summon[Async].support.scheduler
      val before = scheduler.pendingCount
      val calls = (0 until 100).map(i => c.pipelined.set(s"t$i", b("v"), deadline = 1.hour))
      calls.foreach(_.await)
      (0 until 100).foreach(i => c.get(s"t$i", deadline = 1.hour))
      val left = scheduler.pendingCount - before
      assert(left < 25, s"$left one-hour deadlines still pending after their calls completed")

  private def held(fake: FakeServer) = MemcachedConfig(
    Seq(fake.address),
    maxInFlight = 1, // the held request fills the window: later ones wait for the writer
    deadline = 20.seconds,
    livenessTimeout = 30.seconds
  )

  /** A fake server that holds its answer to "a" until `release` opens; `lines` are what it read. */
  private final class Held(
      val fake: FakeServer,
      val lines: ConcurrentLinkedQueue[String],
      val release: CountDownLatch
  )

  private def withHeld[T](body: Held => Async ?=> T): T =
    Async.blocking:
      val lines = ConcurrentLinkedQueue[String]()
      val release = CountDownLatch(1)
      FakeServer.withFake(FakeServer.holding("a", lines, release))(f =>
        body(Held(f, lines, release))
      )

  /** Runs `body` with a client of a [[Held]] server, its config ([[held]]) adjusted by `adjust`. */
  private def onHeldServer[T](adjust: MemcachedConfig => MemcachedConfig = identity)(
      body: (MemcachedClient, Held) => Async ?=> T
  ): T = withHeld(h => withClient(adjust(held(h.fake)))(c => body(c, h)))

  test("a cancelled pipelined request not written yet is never written"):
    onHeldServer(): (c, h) =>
      val a = c.pipelined.get("a")
      assert(awaitUntil(c.nodeStats.head.inFlight == 1), c.toString)
      // "b" is taken by the writer, which waits for a window slot; "c" waits in the queue
      val b1 = c.pipelined.set("b", b("x"))
      val c1 = c.pipelined.set("c", b("x"))
      assert(awaitUntil(c.nodeStats.head.queued == 1), c.toString)
      b1.cancel()
      c1.cancel()
      intercept[CancellationException](b1.await)
      intercept[CancellationException](c1.await)
      h.release.countDown()
      assertEquals(a.await.toOption.map(_.string), Some("v"))
      assertEquals(c.pipelined.get("d").await.toOption.map(_.string), Some("v"))
      val keys = h.lines.asScala.toSeq.map(_.split(' ')(1))
      assertEquals(keys, Seq("a", "d"), "a cancelled pipelined request was written")
      awaitSettled(c)
      val s = c.nodeStats.head
      assertEquals((s.inFlight, s.queued, s.lateReplies), (0, 0, 0L), s.toString)

  test("the reply to a cancelled written pipelined request is discarded and counted late"):
    onHeldServer(): (c, h) =>
      val a = c.pipelined.get("a")
      assert(awaitUntil(c.nodeStats.head.inFlight == 1), c.toString)
      a.cancel()
      intercept[CancellationException](a.await)
      h.release.countDown()
      assert(awaitUntil(c.nodeStats.head.lateReplies == 1), c.toString)
      assertEquals(c.pipelined.get("d").await.toOption.map(_.string), Some("v"))
      awaitSettled(c)
      val s = c.nodeStats.head
      assertEquals((s.inFlight, s.lateReplies, s.reconnects), (0, 1L, 0L), s.toString)

  test("a future nobody awaits fails with Timeout at its deadline; its late reply is counted"):
    onHeldServer(): (c, h) =>
      val a = c.pipelined.get("a", deadline = 50.millis)
      assert(awaitUntil(a.poll().isDefined), c.toString) // completes with no one waiting
      assert(a.poll().get.failed.get.isInstanceOf[Timeout], a.poll().toString)
      assertEquals(c.nodeStats.head.timeouts, 1L)
      h.release.countDown()
      assert(awaitUntil(c.nodeStats.head.lateReplies == 1), c.toString)
      assertEquals(c.pipelined.get("d").await.toOption.map(_.string), Some("v"))

  test("the default deadline fails requests in flight, held by the writer and queued"):
    onHeldServer(_.copy(deadline = 200.millis)): (c, h) =>
      val a = c.pipelined.get("a") // written, its answer held by the server
      assert(awaitUntil(c.nodeStats.head.inFlight == 1), c.toString)
      val b1 = c.pipelined.get("b") // held by the writer: the window is full
      val c1 = c.pipelined.get("c") // queued behind it
      // in every place a request can wait, the connection's sweep fails it by its deadline
      for f <- Seq(a, b1, c1) do intercept[Timeout](f.await)
      assertEquals(c.nodeStats.head.timeouts, 3L)
      h.release.countDown()
      assertEquals(c.pipelined.get("d").await.toOption.map(_.string), Some("v"))
      assertEquals(h.lines.asScala.toSeq.map(_.split(' ')(1)), Seq("a", "d"))

  test("the sweep looks past requests with a timer of their own or already done"):
    onHeldServer(_.copy(deadline = 200.millis, maxInFlight = 10)): (c, h) =>
      val own = c.pipelined.get("a", deadline = 1.hour) // its own timer, held by the server
      assert(awaitUntil(c.nodeStats.head.inFlight == 1), c.toString)
      val gone = c.pipelined.get("x") // in flight behind it; its caller gives up
      gone.cancel()
      val swept = c.pipelined.get("y") // default deadline, behind both
      intercept[Timeout](swept.await)
      h.release.countDown()
      assertEquals(own.await.toOption.map(_.string), Some("v"))

  test("calls racing a connection's close all complete: none is left in a closed queue"):
    Async.blocking:
      // answers gets and closes the connection after a few, again and again
      val flaky: FakeServer.Handler = c =>
        var n = 0
        var l = FakeServer.line(c)
        while l != null && n < 25 do
          val parts = l.nn.split(' ')
          if parts(0) == "mg" then
            FakeServer.send(c, s"VA 1 f0 k${parts(1)} ${FakeServer.opaque(l.nn)}\r\nv\r\n")
          n += 1
          l = if n < 25 then FakeServer.line(c) else null
      FakeServer.withFake(flaky): fake =>
        val config = MemcachedConfig(
          Seq(fake.address),
          deadline = 30.seconds, // swept: a request stranded in a closed queue would never end
          reconnectBase = 1.millis,
          reconnectMax = 5.millis
        )
        withClient(config): c =>
          val all = ConcurrentLinkedQueue[weft.Future[GetResult]]()
          val callers = (0 until 8).map: w =>
            Future:
              for i <- 0 until 300 do
                all.add(c.pipelined.get(s"k$w-$i"))
                if i % 50 == 0 then Thread.sleep(1) // let reconnects happen meanwhile
          callers.foreach(_.await)
          val futures = all.asScala.toSeq
          assertEquals(futures.length, 8 * 300)
          val ended = awaitUntil(futures.forall(_.poll().isDefined), seconds = 20)
          val stuck = futures.count(_.poll().isEmpty)
          assert(ended, s"$stuck calls never completed; ${c.nodeStats.head}")
          for f <- futures; r <- f.poll() do
            r match
              case Success(v) => assertEquals(v.toOption.map(_.string), Some("v"))
              case Failure(_: ConnectionLost | _: Unavailable) => ()
              case Failure(e)                                  => fail("unexpected failure", e)

  test("closing the client fails every pending pipelined future with ClientClosed"):
    withHeld: h =>
      val c = MemcachedClient.open(held(h.fake))
      val pending = c.pipelined.get("a") +: (0 until 10).map(i => c.pipelined.get(s"k$i"))
      assert(awaitUntil(c.nodeStats.head.inFlight == 1), c.toString)
      c.close()
      h.release.countDown()
      pending.foreach(f => intercept[ClientClosed](f.await))
      assertEquals(h.lines.asScala.toSeq.map(_.split(' ')(1)), Seq("a"))

  test("random cancellation of pipelined calls: every other call reads its own value"):
    onServer(Protocol.Meta): c =>
      (0 until 50).foreach(i => c.set(s"key$i", b(s"value$i")))
      val rnd = Random(7)
      var cancelled = 0
      for round <- 0 until 40 do
        val calls = (0 until 100).map: j =>
          val i = rnd.nextInt(50)
          val f = c.pipelined.get(s"key$i")
          // a third cancelled: at once (most not written yet) or a moment later (most written)
          if rnd.nextInt(3) == 0 then
            if rnd.nextBoolean() then LockSupport.parkNanos(rnd.nextLong(100_000L))
            f.cancel()
          i -> f
        for (i, f) <- calls do
          f.result match
            case Success(r) => assertEquals(r.toOption.map(_.string), Some(s"value$i"))
            case Failure(_: CancellationException) => cancelled += 1
            case Failure(e)                        => fail(s"round $round: key$i failed", e)
      assert(cancelled > 100, cancelled.toString)
      awaitSettled(c)
      val s = c.nodeStats.head
      assertEquals((s.desyncs, s.reconnects, s.inFlight, s.queued), (0L, 0L, 0, 0), s.toString)
