package weft.memcached

import java.util.concurrent.ThreadLocalRandom
import java.util.concurrent.locks.LockSupport
import scala.concurrent.duration.*
import weft.{Async, Future, await}
import TestSupport.*

/**
 * The classic cache-client data bug: a call times out, its reply arrives late, and the next
 * call on the same connection reads it. Here it must be read and discarded, never handed over.
 */
class MixUpSuite extends munit.FunSuite, weft.testing.Deadlined:

  // load tests: many calls on a loaded machine
  override def testDeadlineSeconds: Int = 120

  test("10,000 short-deadline gets with delayed replies, each followed by another key: 0 wrong"):
    Async.blocking:
      // replies for "slow" keys are delayed 0-2 ms; their callers wait 1 ms
      val slow: FakeServer.Handler = conn =>
        var l = FakeServer.line(conn)
        while l != null do
          val parts = l.nn.split(' ')
          if parts(1).startsWith("slow") then
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(2_000_000L))
          val v = s"value-of-${parts(1)}"
          FakeServer.send(
            conn,
            s"VA ${v.length} f0 k${parts(1)} ${FakeServer.opaque(l.nn)}\r\n$v\r\n"
          )
          l = FakeServer.line(conn)
      FakeServer.withFake(slow): fake =>
        val tally = Tally()
        val slowTally = Tally()
        val clients = (0 until 4).map: ci =>
          Future:
            withClient(MemcachedConfig(Seq(fake.address), deadline = 5.seconds)): c =>
              val workers = (0 until 4).map: w =>
                Future:
                  for i <- 0 until 625 do
                    val slowKey = s"slow-$ci-$w-$i"
                    slowTally.count(c.get(slowKey, deadline = 1.milli))(
                      _.toOption.map(_.string).contains(s"value-of-$slowKey")
                    )
                    val key = s"fast-$ci-$w-$i"
                    tally.count(c.get(key))(_.toOption.map(_.string).contains(s"value-of-$key"))
              workers.foreach(_.await)
              val s = c.nodeStats.head
              assertEquals((s.desyncs, s.reconnects), (0L, 0L), s.toString)
              s
        val stats = clients.map(_.await)
        assertEquals(tally.wrong.get + slowTally.wrong.get, 0L, s"$tally / $slowTally")
        assertEquals(tally.ok.get, 10_000L, tally.toString)
        assertEquals(slowTally.total, 10_000L, slowTally.toString)
        val timeouts = stats.map(_.timeouts).sum
        assert(timeouts > 100, s"only $timeouts timeouts: the test did not exercise late replies")
        val late = stats.map(_.lateReplies).sum
        // a call that timed out before its request was written is never sent (no reply)
        assert(late > 0 && late <= timeouts, s"$late late replies for $timeouts timeouts")
