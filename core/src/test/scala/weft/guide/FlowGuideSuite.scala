package weft.guide

import java.io.IOException
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import scala.util.Try
import weft.*
import weft.channels.BufferedChannel
import weft.flow.Flow

/** The examples of docs/guide/flow.md that need neither IO nor the test kit, run. */
class FlowGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("flow: cold, run twice"):
    // example: flow-cold
    val evens = Flow.range(0, 10).filter(_ % 2 == 0).map(_ * 10) // a description: nothing runs
    val (list, sum) = Async.blocking:
      (evens.runToList(), evens.runFold(0)(_ + _)) // two runs, each from the start
    // list: List(0, 20, 40, 60, 80), sum: 200
    // end
    assertEquals(list, List(0, 20, 40, 60, 80))
    assertEquals(sum, 200)

  test("flow: sources"):
    // example: flow-sources
    val (values, powers, pages, jobs) = Async.blocking:
      val values = Flow(1, 2, 3).concat(Flow.fromIterable(Vector(4, 5))).runToList()
      val powers = Flow.unfold(1)(n => Option.when(n < 1000)((n, n * 10))).runToList()
      val pages = Flow.usingEmit[String]: emit => // any code that emits, on the run's fiber
        var page = 1
        while page <= 3 do
          emit(s"page $page") // returns once downstream took it: back-pressure
          page += 1
      val queue = BufferedChannel[Int](8)
      val producer = Future:
        for i <- 1 to 3 do queue.send(i)
        queue.close() // the flow of the channel ends when it is closed
      (values, powers, pages.runToList(), Flow.fromChannel(queue).runToList())
    // values: 1 to 5; powers: 1, 10, 100; pages: page 1 to page 3; jobs: 1, 2, 3
    // end
    assertEquals(values, List(1, 2, 3, 4, 5))
    assertEquals(powers, List(1, 10, 100))
    assertEquals(pages, List("page 1", "page 2", "page 3"))
    assertEquals(jobs, List(1, 2, 3))

  test("flow: linear operators"):
    // example: flow-linear
    val (totals, words) = Async.blocking:
      val totals = Flow.range(1, 1_000_000) // only what `take` needs is ever produced
        .map(n => n * n)
        .filter(_ % 3 == 1)
        .scan(0L)(_ + _) // running totals, from 0
        .drop(1)
        .take(4)
        .runToList()
      val words = Flow("to be", "or not")
        .mapConcat(_.split(' '))
        .zipWithIndex
        .grouped(3)
        .runToList()
      (totals, words)
    // totals: List(1, 5, 21, 46)
    // words: List(Seq((to,0), (be,1), (or,2)), Seq((not,3)))
    // end
    assertEquals(totals, List(1L, 5L, 21L, 46L))
    assertEquals(words, List(Seq(("to", 0L), ("be", 1L), ("or", 2L)), Seq(("not", 3L))))

  test("flow: boundaries"):
    // example: flow-boundaries
    def lookup(id: Int)(using Async): String =
      sleep((10 - id).toLong) // the later ids answer sooner
      s"user $id"

    val (ordered, merged, zipped) = Async.blocking:
      val ordered = Flow.range(1, 10).mapPar(4)(id => lookup(id)).runToList()
      val merged = Flow.range(0, 3).merge(Flow.range(100, 103)).runToList()
      val zipped = Flow("a", "b", "c").zip(Flow.iterate(1)(_ + 1)).runToList()
      (ordered, merged, zipped)
    // ordered: user 1 ... user 9, in order, 4 lookups at a time
    // merged: 0, 1, 2, 100, 101, 102 in an order that varies (each side's own order kept)
    // zipped: (a,1), (b,2), (c,3): zip ends with its shorter side
    // end
    assertEquals(ordered, (1 until 10).map(i => s"user $i").toList)
    assertEquals(merged.sorted, List(0, 1, 2, 100, 101, 102))
    assertEquals(merged.filter(_ < 100), List(0, 1, 2))
    assertEquals(zipped, List(("a", 1), ("b", 2), ("c", 3)))

  test("flow: a slow consumer bounds what a buffer lets upstream produce"):
    // example: flow-backpressure
    val mostAhead = Async.blocking:
      val produced = AtomicInteger()
      var mostAhead = 0
      Flow.range(0, 100)
        .tap(_ => produced.incrementAndGet())
        .buffer(4)
        .runForeach: i =>
          sleep(1) // a slow consumer
          mostAhead = mostAhead.max(produced.get - (i + 1))
      mostAhead // at most 5: 4 in the buffer, 1 that upstream waits to hand over
    // end
    assert(mostAhead >= 1 && mostAhead <= 5, mostAhead)

  test("flow: errors, recovery, retries, cancellation"):
    // example: flow-errors
    val (failure, cleanedUp, recovered, retried, stopped) = Async.blocking:
      var cleanedUp = false
      val failure = Try:
        Flow.range(0, 100)
          .mapPar(4)(i => if i == 42 then throw IllegalStateException(s"bad $i") else i)
          .onComplete { cleanedUp = true } // runs however the run ends
          .runDrain()
      val recovered = Flow(1, 2)
        .concat(Flow.failed(IOException("gone")))
        .recover { case _: IOException => -1 } // upstream failures only
        .runToList()
      var attempts = 0
      val flaky = Flow.usingEmit[Int]: emit =>
        attempts += 1
        if attempts < 3 then throw IOException("flaky") else emit(attempts)
      val retried = flaky.retry(Retry(maxRetries = 5)).runToList()
      val stopped = withTimeoutOption(100.millis):
        Flow.tick(10.millis).runDrain() // for ever, until the timeout cancels it
      (failure, cleanedUp, recovered, retried, stopped)
    // failure: Failure(IllegalStateException: bad 42), not wrapped; cleanedUp: true
    // recovered: List(1, 2, -1); retried: List(3) (the third attempt)
    // stopped: None: the ticker and every stage stopped, and have ended
    // end
    assert(failure.failed.toOption.exists(_.getMessage == "bad 42"), failure)
    assert(failure.failed.get.isInstanceOf[IllegalStateException], failure)
    assert(cleanedUp)
    assertEquals(recovered, List(1, 2, -1))
    assertEquals(retried, List(3))
    assertEquals(stopped, None)
