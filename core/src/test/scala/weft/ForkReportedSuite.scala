package weft

import java.io.{ByteArrayOutputStream, PrintStream}
import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch, TimeUnit}
import scala.jdk.CollectionConverters.*

/**
 * `forkReported`: a fire-and-forget member of a scope whose failure is reported when it happens
 * (not at the scope's end), never fails the scope, and whose cancellation is never reported.
 * Each check runs from a platform caller and from a virtual one.
 */
class ForkReportedSuite extends munit.FunSuite, weft.testing.FailureChecks:

  /** Runs `body` with reports recorded, and a latch counted down by each report. */
  def watching(body: CountDownLatch => Unit): List[Throwable] =
    val seen = CountDownLatch(1)
    val reports = ConcurrentLinkedQueue[Throwable]()
    UnobservedFailures.withHandler { e =>
      reports.add(e)
      seen.countDown()
    }(body(seen))
    reports.asScala.toList

  def awaitReport(seen: CountDownLatch): Unit =
    assert(seen.await(15, TimeUnit.SECONDS), "no report while the scope still runs")

  onBothCallers("a failing handler is reported while its scope still runs, once"):
    val boom = IllegalStateException("bad request")
    val reports = watching: seen =>
      Async.blocking:
        Scope.current.forkReported(throw boom)
        awaitReport(seen) // the scope is still running: the report did not wait for its end
    assertEquals(reports, List(boom))

  onBothCallers("handlers an accept loop starts: one fails, is reported, the others go on"):
    val boom = IllegalStateException("request 2")
    val served = ConcurrentLinkedQueue[Int]()
    val others = CountDownLatch(2)
    val reports = watching: seen =>
      Async.blocking:
        val scope = Scope.current
        val loop = Future:
          for conn <- 1 to 3 do
            scope.forkReported:
              if conn == 2 then throw boom
              served.add(conn)
              others.countDown()
          awaitReport(seen) // reported while the loop's own future still runs
        loop.await
        others.await()
    assertEquals(reports, List(boom))
    assertEquals(served.asScala.toSet, Set(1, 3))

  onBothCallers("in a supervised scope a reported failure neither fails nor stops the scope"):
    val boom = IllegalStateException("handler bug")
    var result = 0
    val reports = watching: seen =>
      result = Async.blocking:
        supervised:
          forkReported(throw boom)
          awaitReport(seen)
          Future(41).await + 1 // the scope carries on
    assertEquals(result, 42)
    assertEquals(reports, List(boom))

  onBothCallers("a cancelled handler, and the interrupt its cancel provokes, are not reported"):
    val reports = reported:
      Async.blocking:
        val parked = CountDownLatch(1)
        val waiting = forkReported:
          parked.countDown()
          Promise[Unit]().future.await
        val asleep = CountDownLatch(1)
        val sleeping = forkReported:
          asleep.countDown()
          Thread.sleep(60_000) // throws InterruptedException when cancelled
        parked.await()
        asleep.await()
        waiting.cancel()
        sleeping.cancel()
    assertEquals(reports, Nil)

  onBothCallers("a success is not reported, and an ended scope starts nothing"):
    val ran = java.util.concurrent.atomic.AtomicBoolean()
    var scope: Scope | Null = null
    val reports = reported:
      Async.blocking:
        scope = Scope.current
        val done = CountDownLatch(1)
        forkReported(done.countDown())
        done.await()
      scope.nn.forkReported(ran.set(true))
    assertEquals(reports, Nil)
    assert(!ran.get, "a fork of an ended scope ran")

  test("the report names what failed and the failing thread"):
    val boom = IllegalStateException("bad request")
    val lines = ConcurrentLinkedQueue[(String, Throwable)]()
    val seen = CountDownLatch(1)
    UnobservedFailures.withHandler(_ => ()):
      UnobservedFailures.setReporter { (line, e) =>
        lines.add((line, e))
        seen.countDown()
      }
      Async.blocking:
        forkReported(throw boom)
        awaitReport(seen)
    val (line, e) = lines.asScala.toList match
      case List(one) => one
      case other     => fail(s"expected one report, got $other")
    assert(e eq boom)
    assert(
      line.matches("""weft: a future started with forkReported failed \[virtual thread #\d+\]"""),
      line
    )

  test("by default a report is one line, then the stack trace, on standard error"):
    val boom = IllegalStateException("bad request")
    val captured = ByteArrayOutputStream()
    val before = System.err
    System.setErr(PrintStream(captured, true, "UTF-8"))
    try
      UnobservedFailures.resetHandler()
      val done = CountDownLatch(1)
      Async.blocking:
        forkReported:
          try throw boom
          finally done.countDown()
        done.await()
    finally System.setErr(before)
    val text = captured.toString("UTF-8").linesIterator.toList
    assert(
      text.headOption.exists(
        _.matches("""weft: a future started with forkReported failed \[.*\]""")
      ),
      text.take(3).mkString("\n")
    )
    assertEquals(text.lift(1), Some("java.lang.IllegalStateException: bad request"))
    assert(text.lift(2).exists(_.trim.startsWith("at ")), text.take(3).mkString("\n"))
    assert(!text.exists(_.startsWith("Exception in thread")), text.mkString("\n"))

  test("printReport writes the line and the stack trace in one piece"):
    val out = ByteArrayOutputStream()
    val e = IllegalStateException("x")
    UnobservedFailures.printReport(PrintStream(out, true, "UTF-8"), "weft: line", e)
    val text = out.toString("UTF-8").linesIterator.toList
    assertEquals(text.take(2), List("weft: line", "java.lang.IllegalStateException: x"))
