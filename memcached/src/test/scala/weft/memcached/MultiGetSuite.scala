package weft.memcached

import scala.concurrent.duration.*
import weft.{Async, Future, await}
import FakeServer.{line, send}
import TestSupport.*

/**
 * Large multigets complete: the chunks are written while the replies are read, so full socket
 * buffers never stall them. A repeated key is read once; a chunk that fails after it was sent
 * fails each of its keys.
 */
class MultiGetSuite extends munit.FunSuite, weft.testing.Deadlined:

  // load tests: many calls on a loaded machine
  override def testDeadlineSeconds: Int = 120

  private def fill(c: MemcachedClient, keys: IndexedSeq[String], value: String => Array[Byte])(
      using Async
  ): Unit =
    val writers = keys.grouped(keys.size / 16 + 1).toSeq.map: part =>
      Future(part.foreach(k => c.set(k, value(k))))
    writers.foreach(_.await)

  /** Stores the keys `stored` selects, reads all `keys` in one multiget: exactly those hits. */
  private def storeSomeReadAll(keys: IndexedSeq[String], stored: String => Boolean): Unit =
    MemcachedServer.withServer("-m", "256"): server =>
      Async.blocking:
        withClient(MemcachedConfig(Seq(server.address), deadline = 20.seconds)): c =>
          fill(c, keys.filter(stored), k => b(s"value-of-$k"))
          val r = c.getMulti(keys)
          assertEquals(r.failures, Map.empty)
          val expected = keys.filter(stored)
          assertEquals(r.hits.keySet, expected.toSet)
          assert(expected.forall(k => r.hits(k).string == s"value-of-$k"))
          assertEquals((c.nodeStats.head.desyncs, c.nodeStats.head.reconnects), (0L, 0L))

  test("50,000 keys in one multiget: every value, nothing else"):
    storeSomeReadAll((0 until 50_000).map(i => s"key:$i"), _.hashCode % 5 != 0)

  test("the longest get lines: chunks of 256 keys of 250 bytes (64 KiB lines)"):
    storeSomeReadAll((0 until 600).map(i => f"$i%05d" + "k" * 245), _.hashCode % 3 != 0)

  test("200 values of 100 KiB in one multiget"):
    MemcachedServer.withServer("-m", "256"): server =>
      Async.blocking:
        withClient(MemcachedConfig(Seq(server.address), deadline = 20.seconds)): c =>
          val keys = (0 until 200).map(i => s"big:$i")
          def value(k: String) = Array.tabulate[Byte](100 * 1024)(i => (i * 31 + k.hashCode).toByte)
          fill(c, keys, value)
          val r = c.getMulti(keys)
          assertEquals(r.failures, Map.empty)
          assertEquals(r.hits.size, 200)
          assert(keys.forall(k => r.hits(k).value.sameElements(value(k))))

  test("regression: a repeated key is read once, in both protocols and with base64 keys"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        val configs = Seq(
          MemcachedConfig(Seq(server.address)),
          MemcachedConfig(Seq(server.address), protocol = Protocol.Classic),
          MemcachedConfig(Seq(server.address), binaryKeys = true)
        )
        for config <- configs do
          withClient(config): c =>
            c.set("a", b("v"))
            // sent twice, a hit gets two values back for one expected: the reply stream desyncs
            val r = c.getMulti(Seq("a", "a"))
            assertEquals(r.failures, Map.empty, config.toString)
            assertEquals(r.hits.keySet, Set("a"), config.toString)
            assertEquals(r.hits("a").string, "v")
            // and from a virtual thread, with a miss repeated too
            val v = Future(c.getMulti(Seq("a", "x", "a", "x"))).await
            assertEquals((v.hits.keySet, v.failures), (Set("a"), Map.empty), config.toString)
            val s = c.nodeStats.head
            assertEquals((s.desyncs, s.reconnects), (0L, 0L), s.toString)

  /** Reads request lines and never answers them. */
  private val silent: FakeServer.Handler = c => while line(c) != null do ()

  test("regression: a chunk that times out after it was sent fails each of its keys"):
    Async.blocking:
      FakeServer.withFake(silent): fake =>
        val config = MemcachedConfig(
          Seq(fake.address),
          deadline = 200.millis,
          livenessTimeout = 30.seconds, // the deadline fails the chunk, not a lost connection
          multiGetChunk = 2 // two chunks: both fail
        )
        withClient(config): c =>
          val keys = Seq("a", "b", "c")
          for r <- Seq(c.getMulti(keys), Future(c.getMulti(keys)).await) do
            assertEquals(r.hits, Map.empty[String, Hit])
            assertEquals(r.failures.keySet, keys.toSet, "a key was neither a hit nor a failure")
            assert(r.failures.values.forall(_.isInstanceOf[Timeout]), r.failures)

  test("regression: a chunk whose connection is lost mid-reply fails each of its keys"):
    Async.blocking:
      // reads the request, starts a value and closes the connection in the middle of it
      val cut: FakeServer.Handler = c =>
        val l = line(c)
        if l != null then send(c, "VA 5 f0 ka O1\r\nhe")
      FakeServer.withFake(cut): fake =>
        val config = MemcachedConfig(Seq(fake.address), livenessTimeout = 30.seconds)
        withClient(config): c =>
          val keys = Seq("a", "b", "c")
          val r = c.getMulti(keys)
          assertEquals(r.hits, Map.empty[String, Hit])
          assertEquals(r.failures.keySet, keys.toSet, "a key was neither a hit nor a failure")
          assert(r.failures.values.forall(_.isInstanceOf[ConnectionLost]), r.failures)
