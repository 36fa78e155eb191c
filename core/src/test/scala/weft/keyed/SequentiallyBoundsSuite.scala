package weft.keyed

import java.util.concurrent.atomic.AtomicInteger
import scala.collection.mutable.ArrayBuffer
import weft.{Async, Future, Promise, await}
import weft.testing.Waits

/** Bounded memory: idle keys leave no state; backpressure instead of unbounded queues. */
class SequentiallyBoundsSuite extends munit.FunSuite, weft.testing.Deadlined:

  // a million keys on a loaded machine: generous, it only turns a hang into a failure
  override def testDeadlineSeconds: Int = 120

  /** Waits until the executor has no active key (the last runner removes its lane). */
  private def awaitNoActiveKeys(seq: Sequentially[?]): Unit =
    var polls = 0
    while seq.activeKeys != 0 && polls < 10000 do
      Thread.sleep(1)
      polls += 1

  test("a million distinct keys through submit leave no state behind"):
    val total = 1_000_000
    val chunk = 10_000
    val sum = Async.blocking:
      val seq = Sequentially[Int]()
      var acc = 0L
      var start = 0
      while start < total do
        val fs = (start until start + chunk).map(k => seq.submit(k)(k.toLong))
        fs.foreach(f => acc += f.await)
        start += chunk
      awaitNoActiveKeys(seq)
      assertEquals(seq.activeKeys, 0)
      // the retired lanes leave the map too, at the latest when the workers go idle
      var polls = 0
      while seq.retainedLanes != 0 && polls < 10000 do
        Thread.sleep(1)
        polls += 1
      assertEquals(seq.retainedLanes, 0)
      acc
    assertEquals(sum, total.toLong * (total - 1) / 2)

  test("a million distinct keys through run leave no state behind, at once"):
    Async.blocking:
      val seq = Sequentially[Long]()
      var acc = 0L
      var k = 0L
      while k < 1_000_000L do
        acc += seq.run(k)(k)
        k += 1
      assertEquals(seq.activeKeys, 0)
      assertEquals(acc, 999_999L * 1_000_000L / 2)

  test("backpressure: a full key makes submit wait; no task is dropped, order is kept"):
    val limit = 2
    val log = ArrayBuffer[Int]()
    Async.blocking:
      val seq = Sequentially[String](maxPendingPerKey = limit)
      val gate = Promise[Unit]()
      val first = seq.submit("k")(gate.future.await)
      val admitted = (1 to limit).map(i => seq.submit("k")(log += i))
      val submittedMore = AtomicInteger()
      val producer = Future:
        val more = (limit + 1 to limit + 5).map: i =>
          val f = seq.submit("k")(log += i)
          submittedMore.incrementAndGet()
          f
        more.foreach(_.await)
      Thread.sleep(50)
      assertEquals(submittedMore.get, 0, "the producer must wait while the key is full")
      assertEquals(seq.activeKeys, 1)
      gate.success(())
      Waits.within(first, "the task holding the key")
      admitted.foreach(f => Waits.within(f, "a task admitted before the key was full"))
      Waits.within(producer, "the producer, once the key has room")
      assertEquals(submittedMore.get, 5)
    assertEquals(log.toSeq, 1 to limit + 5)

  test("backpressure: the queue of a key never holds more than the limit"):
    val limit = 4
    val maxSeen = AtomicInteger()
    Async.blocking:
      val seq = Sequentially[Int](maxPendingPerKey = limit)
      val pending = AtomicInteger()
      val producers = (0 until 4).map: _ =>
        Future:
          (0 until 500)
            .map: _ =>
              val f = seq.submit(0):
                pending.decrementAndGet()
                Thread.`yield`()
              val now = pending.incrementAndGet()
              maxSeen.accumulateAndGet(now, math.max)
              f
            .foreach(_.await)
      producers.foreach(_.await)
    // `pending` counts tasks admitted and not started, plus producers between admission and
    // their own increment (at most one each): at most limit + producers.
    assert(maxSeen.get <= limit + 4, s"saw ${maxSeen.get} pending")

  test("a producer cancelled while waiting for room leaves its slot to the others"):
    Async.blocking:
      val seq = Sequentially[Int](maxPendingPerKey = 1)
      val gate = Promise[Unit]()
      val first = seq.submit(1)(gate.future.await)
      val second = seq.submit(1)("second")
      val waiting = Future(seq.submit(1)("never"))
      val other = Future(seq.submit(1)("third").await)
      Thread.sleep(20)
      waiting.cancel()
      gate.success(())
      first.await
      assertEquals(second.await, "second")
      assertEquals(other.await, "third")
