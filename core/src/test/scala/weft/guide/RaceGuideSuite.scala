package weft.guide

import scala.concurrent.duration.*
import scala.util.Success
import scala.util.Try
import weft.*
import weft.channels.*

/** The examples of docs/guide/race-select.md, run. */
class RaceGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("race: the first of two futures"):
    // example: race-race
    val winner = Async.blocking:
      val primary = Future { sleep(5_000); "primary" }
      val replica = Future { sleep(10); "replica" }
      Async.await(Async.race(primary, replica)) // Success(replica)
    // the scope's end cancelled primary
    // end
    assertEquals(winner, Success("replica"))

  test("race: either a reply or a timer"):
    // example: race-either
    val reply = Async.blocking:
      val call = Future { sleep(5_000); "reply" }
      val timer = Timer(100.millis)
      try
        Async.await(Async.either(call, timer)) match
          case Left(result) => result.get
          case Right(_)     => "no reply within 100 ms"
      finally timer.cancel() // frees the timer's entry when the call wins
    // end
    assertEquals(reply, "no reply within 100 ms")

  test("select: a channel read or a timer"):
    // example: race-select
    val got = Async.blocking:
      val orders = BufferedChannel[String](10)
      orders.send("order-1")
      val timer = Timer(1.second)
      try
        Async.select(
          orders.canRead ~~> (o => s"got ${o.get}"),
          timer ~~> (_ => "no order within a second")
        )
      finally timer.cancel()
    // end
    assertEquals(got, "got order-1")

  test("race: raceSuccess"):
    // example: race-success
    val (page, allFailed) = Async.blocking:
      val page = raceSuccess(
        throw java.io.IOException("mirror 1 is down"),
        { sleep(20); "from mirror 2" },
        { sleep(5_000); "from mirror 3" } // cancelled once mirror 2 answers
      )
      val allFailed = Try(raceSuccess[String](throw Exception("a"), throw Exception("b")))
      (page, allFailed) // from mirror 2; Failure(AllFailedException: all 2 alternatives failed ...)
    // end
    assertEquals(page, "from mirror 2")
    assert(allFailed.failed.toOption.exists(_.isInstanceOf[AllFailedException]), allFailed)

  test("select: a timeout case"):
    // example: race-select-timeout
    val log = Async.blocking:
      val inbox = UnboundedChannel[String]()
      inbox.send("hello")
      inbox.send("bye")
      var log = Vector.empty[String]
      var idle = false
      while !idle do
        Async.select(
          inbox.canRead ~~> (m => log :+= m.get),
          onTimeout(50.millis) { log :+= "idle"; idle = true }
        )
      log // Vector(hello, bye, idle)
    // end
    assertEquals(log, Vector("hello", "bye", "idle"))
