package weft.memcached

import scala.concurrent.duration.*
import scala.util.Random
import weft.{Async, Future, await}
import TestSupport.*

/**
 * A real server that stops, dies and comes back, under load. Every call completes (hit, miss
 * or typed error), no read returns a wrong value, and the server counts no leaked connection.
 */
class FailureSuite extends munit.FunSuite, weft.testing.Deadlined:

  // load tests: many calls on a loaded machine
  override def testDeadlineSeconds: Int = 120

  private def config(server: MemcachedServer) = MemcachedConfig(
    Seq(server.address),
    deadline = 300.millis,
    livenessTimeout = 500.millis,
    reconnectBase = 20.millis,
    reconnectMax = 200.millis
  )

  /** `workers` fibers doing random ops on their own keys until `stop()`; returns call counts. */
  @volatile private var restarts = 0

  /**
   * `workers` fibers doing random ops on their own keys until `stop()`; returns call counts.
   * A worker that sees [[restarts]] change lets every key miss (the items were lost); the test
   * bumps it once the server is dead, so no write acknowledged by the old server comes after.
   */
  private def load(c: MemcachedClient, tally: Tally, workers: Int)(stop: () => Boolean)(using
      Async
  ): Seq[Future[Int]] =
    (0 until workers).map: w =>
      Future:
        val rnd = Random(w)
        val model = KeyModel()
        var calls = 0
        var seen = restarts
        while !stop() && calls < 1_000_000 do
          if restarts != seen then
            seen = restarts
            model.loseAll()
          randomOp(c, model, tally, s"k-$w-${rnd.nextInt(20)}", calls, rnd.nextBoolean())
          calls += 1
        calls

  /**
   * Runs 16 load workers on `c`, `disrupt`s the server after 300 ms, `restore`s it, waits (at
   * most 10 s) for 1000 more successful calls, stops the load and checks: completions == calls,
   * no wrong value, some calls failed while the server was out, and the load recovered.
   */
  private def underLoad(c: MemcachedClient)(disrupt: => Unit)(restore: => Unit)(using Async): Unit =
    val tally = Tally()
    val done = java.util.concurrent.atomic.AtomicBoolean()
    val workers = load(c, tally, 16)(() => done.get)
    Thread.sleep(300)
    disrupt
    val failedWhileOut = tally.failed.get
    restore
    val okBefore = tally.ok.get
    awaitUntil(tally.ok.get >= okBefore + 1000)
    done.set(true)
    val calls = workers.map(_.await).sum
    assertEquals(tally.total, calls.toLong, tally.toString)
    assertEquals(tally.wrong.get, 0L, tally.toString)
    assert(failedWhileOut > 0, tally.toString)
    assert(tally.ok.get >= okBefore + 1000, s"no recovery: $tally")
    assert(c.nodeStats.head.reconnects >= 1, c.nodeStats.head.toString)
    // no count drift: once the load stopped, nothing stays counted in flight or queued
    assert(
      awaitUntil(c.nodeStats.head.inFlight == 0 && c.nodeStats.head.queued == 0),
      c.nodeStats.head.toString
    )

  test("SIGSTOP then SIGCONT under load: calls fail typed, then succeed again; no leak"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(config(server)): c =>
          underLoad(c) {
            server.pause()
            Thread.sleep(2000)
          }(server.resume())
        assertEquals(server.awaitNoClientConnections(), 0)

  test("kill -9 and restart under load: prompt typed failures, reconnection, old keys miss"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(config(server)): c =>
          c.set("old", b("before the kill"))
          underLoad(c) {
            server.kill()
            restarts += 1 // after the kill: a write the old server acknowledged may be lost
            Thread.sleep(500)
          }(server.restart())
          assertEquals(c.get("old"), Miss)
          assertEquals(server.stat("curr_connections").toInt - 1, 1, "one connection, none leaked")
        assertEquals(server.awaitNoClientConnections(), 0)

  test("restart with different contents: no read after the restart sees a value from before"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(config(server)): c =>
          val keys = (0 until 100).map(i => s"key$i")
          keys.foreach(k => c.set(k, b(s"gen1-$k")))
          @volatile var restartedAt = Long.MaxValue
          @volatile var done = false
          val wrong = java.util.concurrent.atomic.AtomicInteger()
          val reads = java.util.concurrent.atomic.AtomicInteger()
          val readers = (0 until 8).map: w =>
            Future:
              var i = 0
              while !done && i < 1_000_000 do
                val start = System.nanoTime()
                try
                  val v = c.get(keys((i * 7 + w) % 100)).toOption.map(_.string)
                  reads.incrementAndGet()
                  if start > restartedAt && v.exists(_.startsWith("gen1")) then
                    wrong.incrementAndGet()
                catch case _: MemcachedException => Thread.sleep(1) // back off (see randomOp)
                i += 1
          Thread.sleep(200)
          server.kill()
          server.restart()
          restartedAt = System.nanoTime()
          withClient(MemcachedConfig(server.address)): other =>
            keys.foreach(k => other.set(k, b(s"gen2-$k")))
          val readsAfter = reads.get
          awaitUntil(reads.get >= readsAfter + 2000)
          done = true
          readers.foreach(_.await)
          assertEquals(wrong.get, 0)
          assert(reads.get >= readsAfter + 2000, s"${reads.get} reads")
          assertEquals(c.get("key5").toOption.map(_.string), Some("gen2-key5"))
        assertEquals(server.awaitNoClientConnections(), 0)

  test("a stopped server under 100,000 calls: queue and window stay bounded (Overloaded)"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        val cfg = config(server).copy(maxQueued = 1000, maxInFlight = 100, deadline = 100.millis)
        withClient(cfg): c =>
          server.pause()
          try
            val tally = Tally()
            val overloaded = java.util.concurrent.atomic.AtomicInteger()
            @volatile var maxQueued = 0
            @volatile var maxInFlight = 0
            @volatile var done = false
            val sampler = Future:
              while !done do
                val s = c.nodeStats.head
                maxQueued = math.max(maxQueued, s.queued)
                maxInFlight = math.max(maxInFlight, s.inFlight)
                Thread.sleep(1)
            val kinds = java.util.concurrent.ConcurrentHashMap[String, Integer]()
            // 10 waves of 10,000 concurrent calls: far more than the queue and window hold
            for wave <- 0 until 10 do
              val calls = (0 until 10_000).map: i =>
                Future:
                  try
                    c.get(s"k-$wave-$i")
                    tally.ok.incrementAndGet()
                  catch
                    case _: Overloaded =>
                      overloaded.incrementAndGet()
                      tally.failed.incrementAndGet()
                    case e: MemcachedException =>
                      kinds.merge(e.getClass.getSimpleName, 1, Integer.sum)
                      tally.failed.incrementAndGet()
              calls.foreach(_.await)
            done = true
            sampler.await
            assertEquals(tally.total, 100_000L)
            assert(
              overloaded.get > 50_000,
              s"${overloaded.get} Overloaded of $tally, others $kinds"
            )
            assert(
              maxQueued <= 1000 && maxInFlight <= 100,
              s"queued $maxQueued, in flight $maxInFlight"
            )
          finally server.resume()
          awaitWorking(c)
        assertEquals(server.awaitNoClientConnections(), 0)
