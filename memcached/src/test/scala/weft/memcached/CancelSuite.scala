package weft.memcached

import java.util.concurrent.locks.LockSupport
import scala.concurrent.duration.*
import scala.util.Random
import weft.{Async, Future}
import TestSupport.*

/** Cancelling callers never closes the shared connection nor disturbs other callers. */
class CancelSuite extends munit.FunSuite:

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
