package weft.memcached

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch, TimeUnit}
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import weft.{Async, Future, await}
import FakeServer.{line, opaque, send}
import TestSupport.*

/**
 * A caller that gives up (deadline passed) before its request is written: the request is never
 * written. The deadline counts from the call, the client's own preparation included.
 */
class GiveUpSuite extends munit.FunSuite, weft.testing.Deadlined:

  /**
   * Latches a test holds for the fake server, with a bounded wait (a bug fails, not hangs). Not
   * a munit assert: that locks the suite while it evaluates its condition, so the test's own
   * asserts (`assert(awaitUntil(...))`) would wait for the latch they are about to release.
   */
  private def awaitLatch(l: CountDownLatch, what: String): Unit =
    if !l.await(20, TimeUnit.SECONDS) then
      throw IllegalStateException(s"timed out waiting for $what")

  test("regression: requests whose callers gave up before they were written are never written"):
    Async.blocking:
      val lines = ConcurrentLinkedQueue[String]()
      val release = CountDownLatch(1)
      // records every request line; holds its answer to the key "a" until released
      val holding: FakeServer.Handler = c =>
        var l = line(c)
        while l != null do
          val s = l.nn
          lines.add(s)
          val k = s.split(' ')(1)
          if k == "a" then awaitLatch(release, "the test to release the first reply")
          send(c, s"VA 1 f0 k$k ${opaque(s)}\r\nv\r\n")
          l = line(c)
      FakeServer.withFake(holding): fake =>
        val config = MemcachedConfig(
          Seq(fake.address),
          maxInFlight = 1, // "a" fills the window: later requests wait for the writer
          deadline = 20.seconds,
          livenessTimeout = 30.seconds
        )
        withClient(config): c =>
          val a = Future(c.get("a"))
          val reached =
            awaitUntil(c.nodeStats.head.inFlight == 1) // wait first: assert holds the suite's lock
          assert(reached, c.toString)
          // "b" is taken by the writer, which waits for a window slot; "c" waits in the queue
          intercept[Timeout](c.get("b", deadline = 50.millis))
          intercept[Timeout](c.get("c", deadline = 50.millis))
          release.countDown()
          assertEquals(a.await.toOption.map(_.string), Some("v"))
          assertEquals(c.get("d").toOption.map(_.string), Some("v"))
          val keys = lines.asScala.toSeq.map(_.split(' ')(1))
          assertEquals(keys, Seq("a", "d"), "a request whose caller had given up was written")
          TestSupport.awaitSettled(c)
          val s = c.nodeStats.head
          assertEquals((s.inFlight, s.queued, s.timeouts), (0, 0, 2L), s.toString)

  test("regression: the deadline covers the client's own preparation (a slow codec)"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(MemcachedConfig(server.address)): c =>
          // a codec slower than the call's deadline: the call is out of time before it is sent
          given slow: Codec[String] with
            def encode(v: String): (Array[Byte], Int) =
              Thread.sleep(100)
              (b(v), 0)
            def decode(h: Hit): String = h.string
          intercept[Timeout](c.put("k", "v", deadline = 20.millis)(using slow))
          // and from a virtual thread
          Future(intercept[Timeout](c.put("k", "v", deadline = 20.millis)(using slow))).await
          assertEquals(c.get("k"), Miss, "a call past its deadline was still sent")

  test("regression: the deadline of a multi-get covers reading and grouping its keys"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(MemcachedConfig(server.address)): c =>
          c.set("k0", b("v"))
          // keys that take longer to produce than the whole deadline
          val slowKeys = new Iterable[String]:
            def iterator: Iterator[String] = (0 until 10).iterator.map: i =>
              Thread.sleep(10)
              s"k$i"
          val r = c.getMulti(slowKeys, deadline = 20.millis)
          assertEquals(r.hits, Map.empty[String, Hit])
          assertEquals(r.failures.keySet, (0 until 10).map(i => s"k$i").toSet)
          assert(r.failures.values.forall(_.isInstanceOf[Timeout]), r.failures.values)
          assertEquals(c.nodeStats.head.lateReplies, 0L, "the request was sent anyway")
