package weft.memcached

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import java.util.concurrent.locks.LockSupport
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import scala.util.Random
import weft.{Async, Future, await}
import FakeServer.{line, opaque, send}
import TestSupport.*

/**
 * Cancelling callers never closes the shared connection nor disturbs other callers. A cancelled
 * caller abandons its request: never written if it was not yet, its reply counted late if it
 * was.
 */
class CancelSuite extends munit.FunSuite, weft.testing.Deadlined:

  // load tests: many calls on a loaded machine
  override def testDeadlineSeconds: Int = 120

  test("random cancellation of half the calls: the others all right, the connection kept"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(MemcachedConfig(Seq(server.address), deadline = 10.seconds)): c =>
          val tally = Tally()
          val workers = (0 until 32).map: w =>
            Future:
              val rnd = Random(w)
              // the values a read may see: the last acknowledged one, plus any cancelled set after it
              val possible =
                scala.collection.mutable.HashMap[String, Set[Option[String]]]().withDefaultValue(
                  Set(None)
                )
              var calls = 0
              for i <- 0 until 300 do
                val key = s"k-$w-${rnd.nextInt(10)}"
                val isSet = rnd.nextBoolean()
                val v = s"$key|$i"
                val f = Future:
                  if isSet then
                    c.set(key, b(v))
                    None
                  else Some(c.get(key).toOption.map(_.string))
                if rnd.nextBoolean() then
                  LockSupport.parkNanos(rnd.nextLong(200_000L))
                  f.cancel()
                calls += 1
                tally.count(weft.await(f)):
                  case None =>
                    possible(key) = Set(Some(v))
                    true
                  case Some(read) => possible(key).contains(read)
                if f.poll().exists(_.isFailure) && isSet then
                  possible(key) = possible(key) + Some(v)
              calls
          val calls = workers.map(f => weft.await(f)).sum
          assertEquals(calls, 32 * 300)
          assertEquals(tally.total, calls.toLong, tally.toString)
          assertEquals(tally.wrong.get, 0L, tally.toString)
          assert(tally.cancelled.get > 1000, tally.toString)
          assertEquals(tally.failed.get, 0L, tally.toString)
          val s = c.nodeStats.head
          assertEquals((s.reconnects, s.desyncs, s.state), (0L, 0L, NodeState.Up), s.toString)
          c.set("after", b("x"))
          assertEquals(c.get("after").toOption.get.string, "x")

  private def held(fake: FakeServer) = MemcachedConfig(
    Seq(fake.address),
    maxInFlight = 1, // "a" fills the window: later requests wait for the writer
    deadline = 20.seconds,
    livenessTimeout = 30.seconds
  )

  test("regression: a cancelled caller's request not written yet is never written"):
    Async.blocking:
      val lines = ConcurrentLinkedQueue[String]()
      val release = CountDownLatch(1)
      FakeServer.withFake(FakeServer.holding("a", lines, release)): fake =>
        withClient(held(fake)): c =>
          val a = Future(c.get("a"))
          assert(awaitUntil(c.nodeStats.head.inFlight == 1), c.toString)
          // "b" is taken by the writer, which waits for a window slot; "c" waits in the queue
          val b1 = Future(c.set("b", b("x")))
          val c1 = Future(c.set("c", b("x")))
          assert(awaitUntil(c.nodeStats.head.queued == 1), c.toString)
          b1.cancel()
          c1.cancel()
          intercept[CancellationException](b1.await)
          intercept[CancellationException](c1.await)
          release.countDown()
          assertEquals(a.await.toOption.map(_.string), Some("v"))
          assertEquals(c.get("d").toOption.map(_.string), Some("v"))
          val keys = lines.asScala.toSeq.map(_.split(' ')(1))
          assertEquals(keys, Seq("a", "d"), "a request whose caller was cancelled was written")
          TestSupport.awaitSettled(c)
          val s = c.nodeStats.head
          assertEquals((s.inFlight, s.queued, s.lateReplies), (0, 0, 0L), s.toString)

  test("regression: the reply to a cancelled caller's written request is counted late"):
    Async.blocking:
      val lines = ConcurrentLinkedQueue[String]()
      val release = CountDownLatch(1)
      FakeServer.withFake(FakeServer.holding("a", lines, release)): fake =>
        withClient(held(fake)): c =>
          val a = Future(c.get("a"))
          assert(awaitUntil(c.nodeStats.head.inFlight == 1), c.toString)
          a.cancel()
          intercept[CancellationException](a.await)
          release.countDown()
          assert(awaitUntil(c.nodeStats.head.lateReplies == 1), c.toString)
          assertEquals(c.get("d").toOption.map(_.string), Some("v"))
          TestSupport.awaitSettled(c)
          val s = c.nodeStats.head
          assertEquals((s.inFlight, s.lateReplies, s.reconnects), (0, 1L, 0L), s.toString)
