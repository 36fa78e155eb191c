package weft.keyed

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters.*
import weft.{Async, Future, Promise, await}

/** Per-key FIFO, one task at a time per key, and independence of different keys. */
class SequentiallyOrderSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("run returns the body's value and rethrows its exception"):
    Async.blocking:
      val seq = Sequentially[String]()
      assertEquals(seq.run("a")(21 * 2), 42)
      val e = intercept[IllegalStateException](seq.run("a")(throw IllegalStateException("x")))
      assertEquals(e.getMessage, "x")
      assertEquals(seq.submit("a")("v").await, "v")

  test("tasks of one key run in submission order from one fiber, never overlapping"):
    val keys = 8
    val perKey = 2000
    val ran = Array.fill(keys)(ArrayBuffer[Int]())
    val inFlight = Array.fill(keys)(AtomicInteger())
    val overlaps = AtomicInteger()
    Async.blocking:
      val seq = Sequentially[Int]()
      val futures =
        for i <- 0 until perKey; k <- 0 until keys yield seq.submit(k):
          if inFlight(k).incrementAndGet() != 1 then overlaps.incrementAndGet()
          ran(k) += i // unsynchronised on purpose: the executor's hand-offs order these writes
          inFlight(k).decrementAndGet()
      futures.foreach(_.await)
    assertEquals(overlaps.get, 0)
    for k <- 0 until keys do assertEquals(ran(k).toSeq, 0 until perKey)

  test("run and submit interleaved from one fiber keep program order"):
    val log = ConcurrentLinkedQueue[Int]()
    Async.blocking:
      val seq = Sequentially[Int]()
      for round <- 0 until 200 do
        val gate = Promise[Unit]()
        seq.submit(round)(gate.future.await)
        val a = seq.submit(round)(log.add(round * 10 + 1))
        gate.success(())
        seq.run(round)(log.add(round * 10 + 2))
        val b = seq.submit(round)(log.add(round * 10 + 3))
        a.await
        b.await
    val expected = (0 until 200).flatMap(r => Seq(r * 10 + 1, r * 10 + 2, r * 10 + 3))
    assertEquals(log.asScala.toSeq, expected)

  test("a task submitted after another fiber's submit returned runs after it"):
    // Happens-before across fibers: fiber A submits, then tells fiber B, which submits.
    val rounds = 500
    val wrong = AtomicInteger()
    Async.blocking:
      val seq = Sequentially[Int]()
      for r <- 0 until rounds do
        val order = ConcurrentLinkedQueue[String]()
        val handedOver = Promise[Unit]()
        val fa = Future:
          val f = seq.submit(r)(order.add("a"))
          handedOver.success(())
          f.await
        val fb = Future:
          handedOver.future.await
          seq.submit(r)(order.add("b")).await
        fa.await
        fb.await
        if order.asScala.toSeq != Seq("a", "b") then wrong.incrementAndGet()
    assertEquals(wrong.get, 0)

  test("concurrent producers on one key: each producer's order kept, nothing lost or doubled"):
    val producers = 4
    val each = 2000
    val log = ConcurrentLinkedQueue[(Int, Int)]()
    val inFlight = AtomicInteger()
    val overlaps = AtomicInteger()
    Async.blocking:
      val seq = Sequentially[String](maxPendingPerKey = 64)
      val fs = (0 until producers).map: p =>
        Future:
          val mine = (0 until each).map: i =>
            seq.submit("shared"):
              if inFlight.incrementAndGet() != 1 then overlaps.incrementAndGet()
              log.add((p, i))
              inFlight.decrementAndGet()
          mine.foreach(_.await)
      fs.foreach(_.await)
    assertEquals(overlaps.get, 0)
    val all = log.asScala.toSeq
    assertEquals(all.size, producers * each)
    for p <- 0 until producers do assertEquals(all.filter(_._1 == p).map(_._2), 0 until each)

  test("a blocked task on key A never delays key B, even with many blocked keys"):
    // More blocked keys than the CPU*5 buckets of the bucketed peers: none of them delays B.
    val blockedKeys = 64
    Async.blocking:
      val seq = Sequentially[Int]()
      val gate = Promise[Unit]()
      val started = AtomicInteger()
      val blocked = (0 until blockedKeys).map: k =>
        seq.submit(k):
          started.incrementAndGet()
          gate.future.await
          k
      val other = (1000 until 1100).map(k => seq.submit(k)(k * 2))
      assertEquals(other.map(_.await), (1000 until 1100).map(_ * 2))
      assertEquals(seq.run(5000)("direct"), "direct")
      assert(blocked.forall(_.poll().isEmpty), "the blocked tasks are still running")
      gate.success(())
      assertEquals(blocked.map(_.await), 0 until blockedKeys)
      assertEquals(started.get, blockedKeys)

  test("blocked and free keys interleaved in one burst: every free key completes"):
    // A worker that drains a free lane takes the next ready lane directly, which may block:
    // the free lanes behind it must still reach other workers.
    Async.blocking:
      val seq = Sequentially[Int]()
      val gate = Promise[Unit]()
      val tasks = (0 until 400).map: k =>
        if k % 2 == 0 then
          seq.submit(k):
            gate.future.await
            -k
        else seq.submit(k)(k)
      val free = tasks.zipWithIndex.collect { case (f, k) if k % 2 == 1 => f.await }
      assertEquals(free, (1 until 400 by 2))
      assert(tasks.indices.filter(_ % 2 == 0).forall(k => tasks(k).poll().isEmpty))
      gate.success(())
      assertEquals(
        tasks.indices.filter(_ % 2 == 0).map(k => tasks(k).await),
        (0 until 400 by 2).map(-_)
      )

  test("tasks of different keys do run at the same time"):
    // Two tasks of different keys that each wait for the other can only finish concurrently.
    Async.blocking:
      val seq = Sequentially[String]()
      val a = Promise[Unit]()
      val b = Promise[Unit]()
      val fa = seq.submit("a") { a.success(()); b.future.await; "A" }
      val fb = seq.submit("b") { b.success(()); a.future.await; "B" }
      assertEquals((fa.await, fb.await), ("A", "B"))

  test("run on a busy key waits for the earlier tasks"):
    val clock = AtomicLong()
    Async.blocking:
      val seq = Sequentially[Int]()
      val gate = Promise[Unit]()
      val first = seq.submit(1) { gate.future.await; clock.incrementAndGet() }
      val runner = Future(seq.run(1)(clock.incrementAndGet()))
      Thread.sleep(20)
      assert(runner.poll().isEmpty, "run must wait behind the gated task")
      gate.success(())
      assertEquals(first.await, 1L)
      assertEquals(runner.await, 2L)
