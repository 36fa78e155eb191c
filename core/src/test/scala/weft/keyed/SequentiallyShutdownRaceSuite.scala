package weft.keyed

import java.util.concurrent.ConcurrentLinkedQueue
import scala.jdk.CollectionConverters.*
import weft.{Async, Future}
import weft.testing.StressChecks

/**
 * A task submitted while its executor shuts down completes: it runs, or it is cancelled, but it
 * never stays queued in an executor whose workers have stopped. Each round races submitters
 * against `cancel()`, then requires every accepted task's future to complete.
 */
class SequentiallyShutdownRaceSuite extends munit.FunSuite, StressChecks:

  test("a task submitted during shutdown completes (run or cancelled), never left pending"):
    withinDeadline(60, "keyed-shutdown-race"):
      val rnd = scala.util.Random(11)
      for round <- 1 to 400 do
        val accepted = ConcurrentLinkedQueue[Future[Int]]()
        Async.blocking:
          val seq = Sequentially[Int]()
          val submitters = (0 until 3).map: s =>
            Future:
              var i = 0
              var open = true
              while open && i < 10_000 do
                try accepted.add(seq.submit((s * 7 + i) % 16)(i))
                catch case _: SequentiallyClosedException => open = false
                i += 1
          val spin = rnd.nextInt(50_000)
          var k = 0
          while k < spin do k += 1
          seq.cancel()
          submitters.foreach(f => Async.await(f))
          val pending = accepted.asScala.count(f => f.poll().isEmpty)
          // Completion after cancel() is immediate for queued tasks; give running ones a moment.
          var waited = 0
          while accepted.asScala.exists(_.poll().isEmpty) && waited < 2_000 do
            Thread.sleep(1)
            waited += 1
          val left = accepted.asScala.count(_.poll().isEmpty)
          assertEquals(
            left,
            0,
            s"round $round: $left of ${accepted.size} tasks never completed ($pending at cancel)"
          )
