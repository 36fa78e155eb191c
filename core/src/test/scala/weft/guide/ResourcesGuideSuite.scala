package weft.guide

import java.util.concurrent.atomic.AtomicInteger
import scala.collection.mutable.ListBuffer
import weft.*

/** The examples of docs/guide/resources.md, run. */
class ResourcesGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("resources: acquired in order, released in reverse"):
    // example: resources-use
    val log = ListBuffer[String]()
    def connection(name: String): Resource[String] =
      Resource(
        acquire =
          log += s"open $name"; name
        ,
        release = c => log += s"close $c"
      )

    val result = Async.blocking:
      Resource.both(connection("db"), connection("cache")).use: (db, cache) =>
        log += s"use $db and $cache"
        s"$db and $cache"
    // log: open db, open cache, use db and cache, close cache, close db
    // end
    assertEquals(result, "db and cache")
    assertEquals(
      log.toList,
      List("open db", "open cache", "use db and cache", "close cache", "close db")
    )

  test("resources: a semaphore bounds concurrency"):
    // example: resources-semaphore
    val mostAtOnce = Async.blocking:
      val permits = Semaphore(2)
      val running = AtomicInteger()
      val mostAtOnce = AtomicInteger()
      val calls = (1 to 10).map: _ =>
        Future:
          permits.withPermit:
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), math.max)
            sleep(10)
            running.decrementAndGet()
      calls.foreach(_.await)
      mostAtOnce.get // at most 2: never more than two calls at a time
    // end
    assert(mostAtOnce >= 1 && mostAtOnce <= 2, mostAtOnce)

  test("resources: allocated and spawning"):
    // example: resources-allocated
    val (value, events) = Async.blocking:
      val log = ListBuffer[String]()
      val conn = Resource(
        acquire =
          log += "open"; "conn"
        ,
        release = _ => log += "close"
      )
      val held = conn.allocated // open: acquired now, released when we say
      val value = held.value
      val served = Resource.spawning.use: scope =>
        val idle = Future { sleep(60_000) }(using scope) // cancelled and joined when use ends
        log += "serving"
      held.release() // close
      (value, log.toList) // (conn, List(open, serving, close))
    // end
    assertEquals(value, "conn")
    assertEquals(events, List("open", "serving", "close"))
