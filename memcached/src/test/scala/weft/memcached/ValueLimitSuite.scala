package weft.memcached

import scala.concurrent.duration.*
import weft.{Async, Future, await}
import TestSupport.*

/** The value limit at its exact boundary, and server-side size errors as per-request errors. */
class ValueLimitSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("the default limit: a value of exactly the limit is stored with a 250-byte key"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        withClient(MemcachedConfig(server.address)): c =>
          val key = "k" * 250
          val max = Array.tabulate[Byte](MemcachedConfig.DefaultMaxValueSize)(i => (i % 251).toByte)
          c.set(key, max)
          assertEquals(c.get(key).toOption.get.value.toSeq, max.toSeq)
          val sets = server.stat("cmd_set")
          intercept[ValueTooLarge](c.set(key, new Array[Byte](max.length + 1)))
          assertEquals(server.stat("cmd_set"), sets, "the refused value was never sent")

  test("1000 oversized sets: each a ServerError, the connection kept, no count drift"):
    MemcachedServer.withServer(): server =>
      Async.blocking:
        val config =
          MemcachedConfig(Seq(server.address), maxValueSize = 2 << 20, deadline = 20.seconds)
        withClient(config): c =>
          val big = new Array[Byte]((1 << 20) + 1000)
          val tally = Tally()
          val errors = java.util.concurrent.atomic.AtomicInteger()
          val workers = (0 until 8).map: w =>
            Future:
              for i <- 0 until 125 do
                try
                  c.set(s"big-$w-$i", big)
                  tally.wrong.incrementAndGet()
                catch
                  case e: ServerError if e.getMessage.contains("too large") =>
                    errors.incrementAndGet()
                tally.count(c.set(s"small-$w-$i", b(s"v$i")))(_ => true)
                tally.count(c.get(s"small-$w-$i"))(_.toOption.map(_.string).contains(s"v$i"))
          workers.foreach(_.await)
          assertEquals(errors.get, 1000)
          assertEquals(tally.ok.get, 2000L, tally.toString)
          assertEquals(tally.wrong.get, 0L, tally.toString)
          TestSupport.awaitSettled(c)
          val s = c.nodeStats.head
          assertEquals((s.inFlight, s.queued, s.reconnects, s.desyncs), (0, 0, 0L, 0L), s.toString)
          assertEquals(server.stat("store_too_large"), "1000")
