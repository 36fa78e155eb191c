package weft

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch}
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*

/**
 * The unobserved-failure hook: a watching scope reports, at its end, the failures of its futures
 * that nobody read, to the configured handler (by default the thread's uncaught-exception
 * handler). Whether a future was read is the future's flag; here a test predicate stands in
 * for it (see `ObservedResult`).
 */
class UnobservedFailuresSuite extends munit.FunSuite:

  override val munitTimeout = 30.seconds

  /** Runs `body` in a watching scope whose observed-ness is `observed`; returns the reports. */
  def watched(observed: CoreFuture[?] => Boolean)(body: Async ?=> Unit): List[Throwable] =
    val reports = ConcurrentLinkedQueue[Throwable]()
    UnobservedFailures.withHandler(e => reports.add(e): Unit):
      Async.blocking:
        val outer = summon[Async]
        val g = WatchingGroup(f => observed(f))
        g.link(outer.group)
        try body(using outer.withGroup(g))
        finally
          g.cancel()
          g.waitCompletion()
          g.unlink()
        g.reportUnobserved()
    reports.asScala.toList

  test("a failure nobody read is reported once, at the scope's end"):
    val boom = IllegalStateException("boom")
    val reports = watched(_ => false):
      Future(throw boom)
      Future(1).await: Unit
    assertEquals(reports, List(boom))

  test("a failure that was read, a success and a cancellation are not reported"):
    val read = ConcurrentLinkedQueue[Future[?]]()
    val reports = watched(f => read.contains(f)):
      val f = Future[Int](throw IllegalStateException("read"))
      f.result: Unit
      read.add(f)
      val pending = Future(Promise[Int]().future.await)
      pending.cancel()
      Future(2)
    assertEquals(reports, Nil)

  test("a future still running at the scope's end is cancelled, not reported"):
    val started = CountDownLatch(1)
    val reports = watched(_ => false):
      Future:
        started.countDown()
        Promise[Int]().future.await
      started.await()
    assertEquals(reports, Nil)

  test("the default handler is the uncaught-exception handler of the thread ending the scope"):
    val got = ConcurrentLinkedQueue[Throwable]()
    val boom = IllegalStateException("default")
    val t = Thread.ofVirtual().unstarted(() => UnobservedFailures.report(boom))
    t.setUncaughtExceptionHandler((_, e) => got.add(e): Unit)
    t.start()
    t.join(20_000)
    assertEquals(got.asScala.toList, List(boom))

  test("a handler that throws is reported to the thread's handler, the scope still ends"):
    val got = ConcurrentLinkedQueue[Throwable]()
    val faulty = IllegalStateException("handler bug")
    val t = Thread.ofVirtual().unstarted: () =>
      UnobservedFailures.withHandler(_ => throw faulty):
        UnobservedFailures.report(IllegalStateException("x"))
    t.setUncaughtExceptionHandler((_, e) => got.add(e): Unit)
    t.start()
    t.join(20_000)
    assertEquals(got.asScala.toList, List(faulty))

  test(
    "futures without the observed flag count as read: nothing reported (until CoreFuture has it)"
  ):
    val reports = watched(WatchingGroup.observedFlag):
      Future(throw IllegalStateException("not flagged"))
      Future(1).await: Unit
    assertEquals(reports, Nil)

  test("a null handler is rejected at the call"):
    intercept[IllegalArgumentException](UnobservedFailures.setHandler(null))
