package weft.memcached

import scala.concurrent.duration.*
import scala.util.Random
import weft.{Async, Future, await}
import TestSupport.*

/**
 * Many callers share one pipelined connection: every reply reaches its own caller.
 *
 * A bug here tends to hang calls rather than fail them (a reply lost or given to the wrong
 * request), so the test fails fast instead: each caller stops at the first call that does not
 * succeed with the right value (one deadline, 5 s, not 640,000 of them), and the whole test runs
 * under an overall deadline that fails it with a dump of every thread.
 */
class PipelineSuite extends munit.FunSuite, weft.testing.Deadlined:

  // above the test's own 120 s bounded deadline, which dumps the threads first
  override def testDeadlineSeconds: Int = 150

  boundedTest(
    "64 callers x 10,000 random ops on one connection: 0 mismatches, 0 stale reads",
    seconds = 120
  ):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(MemcachedConfig(Seq(server.address), deadline = 5.seconds)): c =>
          val tally = Tally()
          def healthy = tally.failed.get == 0 && tally.wrong.get == 0 && tally.cancelled.get == 0
          val callers = (0 until 64).map: w =>
            Future:
              val rnd = Random(w)
              val last = scala.collection.mutable.HashMap[String, String]()
              var i = 0
              while i < 10_000 && healthy do
                val own = s"own-$w-${rnd.nextInt(50)}"
                val shared = s"shared-${rnd.nextInt(100)}"
                rnd.nextInt(4) match
                  case 0 =>
                    val v = s"$own|$w|$i"
                    tally.count(c.set(own, b(v)))(_ => true)
                    last(own) = v
                  case 1 =>
                    // a read never returns anything but the last acknowledged write
                    tally.count(c.get(own))(r => r.toOption.map(_.string) == last.get(own))
                  case 2 => tally.count(c.set(shared, b(s"$shared|$w|$i")))(_ => true)
                  case _ =>
                    tally.count(c.get(shared))(r =>
                      r.toOption.forall(_.string.startsWith(shared + "|"))
                    )
                i += 1
          callers.foreach(_.await)
          assertEquals(tally.wrong.get, 0L, tally.toString)
          assertEquals(tally.ok.get, 640_000L, s"$tally; ${c.nodeStats.head}")
          TestSupport.awaitSettled(c)
          val s = c.nodeStats.head
          assertEquals((s.inFlight, s.queued, s.reconnects, s.desyncs), (0, 0, 0L, 0L))
          assertEquals(server.stat("curr_connections").toInt - 1, 1) // the client's one connection
