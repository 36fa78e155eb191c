package weft.guide

// example: tour
import scala.concurrent.duration.*
import weft.*
import weft.channels.*

@main def tour(): Unit =
  Async.blocking: // a scope: nothing started in it outlives it
    val a = Future { sleep(100); 10 } // each future runs on its own virtual thread
    val b = Future { sleep(200); 40 }
    println(a.await + b.await) // 50, after 200 ms: direct style, no callbacks

    val jobs = BufferedChannel[Int](8)
    val producer = Future:
      for i <- 1 to 5 do jobs.send(i)
      jobs.close()
    val squares = Iterator.continually(jobs.read()).takeWhile(_.isSuccess).map(_.get)
    println(squares.map(n => n * n).sum) // 55: the loop ends once jobs is closed and drained

    val slow = Future { sleep(10.seconds); "slow" }
    println(withTimeoutOption(100.millis)(slow.await)) // None: gave up after 100 ms
    println(Async.await(Async.race(slow, Future("fast")))) // Success(fast)
    // the scope's end cancels slow and waits until its thread has ended
// end

/** The tour of the README and of docs/guide/README.md, run: it prints what its comments say. */
class TourGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("the tour prints 50, 55, None, Success(fast)"):
    val out = java.io.ByteArrayOutputStream()
    Console.withOut(out)(tour())
    assertEquals(out.toString.linesIterator.toList, List("50", "55", "None", "Success(fast)"))
