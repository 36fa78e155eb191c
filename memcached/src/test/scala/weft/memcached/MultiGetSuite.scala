package weft.memcached

import scala.concurrent.duration.*
import weft.{Async, Future, await}
import TestSupport.*

/**
 * Large multigets complete: the chunks are written while the replies are read, so full socket
 * buffers never stall them.
 */
class MultiGetSuite extends munit.FunSuite:

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
