package weft.keyed

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import scala.jdk.CollectionConverters.*
import scala.util.{Random, Success}
import weft.{Async, Future, await}
import weft.testing.StressChecks

/** Randomised stress: submit, run and cancel mixed from several fibers over a set of keys. */
class SequentiallyStressSuite extends munit.FunSuite, StressChecks:
  override val munitTimeout = scala.concurrent.duration.Duration(120, "s")

  test("mixed submit/run/cancel over a few busy keys: no overlap, program order, exactly-once"):
    withinDeadline(90, "sequentially-stress")(mixed(keys = 16, opsEach = 3000, maxPending = 8, 0))

  test("keys going idle and busy again (entries, lanes, hand-over): same guarantees"):
    // Many keys, each rarely busy: most tasks find their key idle and become its entry; a
    // second task of a key arriving while the first is in flight attaches a lane to it, racing
    // the entry's runner, which retires the key if it wins.
    withinDeadline(90, "sequentially-stress")(mixed(
      keys = 256,
      opsEach = 25_000,
      maxPending = 2,
      100
    ))

  /**
   * `producers` fibers submit, run, and submit-and-cancel tasks on random keys; every body
   * checks that no other task of its key runs, and logs itself. Then: nothing ran twice, nothing
   * not cancelled was lost, each producer's tasks of a key ran in its order, and no key is left
   * active or retained.
   */
  private def mixed(keys: Int, opsEach: Int, maxPending: Int, seed: Int): Unit =
    val producers = 4
    val inFlight = Array.fill(keys)(AtomicInteger())
    val overlaps = AtomicInteger()
    val logs = Array.fill(keys)(ConcurrentLinkedQueue[(Int, Int)]())
    Async.blocking:
      val seq = Sequentially[Int](maxPendingPerKey = maxPending)
      def body(k: Int, p: Int, i: Int): Unit =
        if inFlight(k).incrementAndGet() != 1 then overlaps.incrementAndGet()
        logs(k).add((p, i))
        if i % 97 == 0 then Thread.`yield`()
        inFlight(k).decrementAndGet()
      val outcomes = (0 until producers).map: p =>
        Future:
          val rnd = Random(seed + p)
          (0 until opsEach).map: i =>
            val k = rnd.nextInt(keys)
            rnd.nextInt(10) match
              case 0 | 1 =>
                seq.run(k)(body(k, p, i))
                (k, i, Some(Success(())))
              case 2 =>
                val f = seq.submit(k)(body(k, p, i))
                f.cancel()
                (k, i, None: Option[scala.util.Try[Unit]])
              case _ =>
                val f = seq.submit(k)(body(k, p, i))
                if i % 50 == 0 then f.await
                (k, i, Some(Success(())))
      val all = outcomes.map(_.await)
      // every submitted task is finished once its key's later tasks are: await the last ones
      for k <- 0 until keys do seq.run(k)(())
      var polls = 0
      while (seq.activeKeys != 0 || seq.retainedLanes != 0) && polls < 10000 do
        Thread.sleep(1)
        polls += 1
      assertEquals(seq.activeKeys, 0)
      assertEquals(seq.retainedLanes, 0, "dead entries left in the key map")
      assertEquals(overlaps.get, 0)
      for p <- 0 until producers do
        val ran = (0 until keys).flatMap(k => logs(k).asScala.filter(_._1 == p).map(e => (k, e._2)))
        assertEquals(ran.distinct.size, ran.size, s"producer $p: a task ran twice")
        val ranSet = ran.toSet
        for (k, i, outcome) <- all(p) do
          if outcome.isDefined then assert(ranSet((k, i)), s"producer $p task $i on key $k lost")
        for k <- 0 until keys do
          val order = logs(k).asScala.filter(_._1 == p).map(_._2).toSeq
          assertEquals(order, order.sorted, s"producer $p key $k out of order")
