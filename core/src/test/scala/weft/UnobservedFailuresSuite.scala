package weft

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch}
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import weft.internal.futures.CoreFuture

/**
 * The unobserved-failure hook: a scope reports, at its end, the failures of its futures that
 * nobody awaited, polled or listened to, to the configured handler (by default
 * one line and the stack trace on standard error), each once; cancellations never.
 */
class UnobservedFailuresSuite extends munit.FunSuite, weft.testing.Deadlined,
      weft.testing.FailureChecks:

  override val munitTimeout = 30.seconds

  /** Waits until `f` has its result, without reading it (so without observing it). */
  def settled(f: Future[?]): Unit =
    while !f.asInstanceOf[CoreFuture[?]].isDone do Thread.sleep(1)

  test("a failure nobody read is reported once, at the scope's end"):
    val boom = IllegalStateException("boom")
    val reports = reported:
      Async.blocking:
        settled(Future(throw boom)) // else the scope's end may cancel it before it runs
        Future(1).await: Unit
    assertEquals(reports, List(boom))

  test("in a nested group and in a future's own children too"):
    val inGroup = IllegalStateException("group")
    val inChild = IllegalStateException("child")
    val reports = reported:
      Async.blocking:
        Async.group:
          settled(Future(throw inGroup))
        Future:
          settled(Future(throw inChild))
        .await
    assertEquals(reports.toSet, Set[Throwable](inGroup, inChild))

  test("a failure that was awaited, polled or listened to is not reported"):
    val reports = reported:
      Async.blocking:
        val awaited = Future[Int](throw IllegalStateException("awaited"))
        awaited.result: Unit
        val polled = Future[Int](throw IllegalStateException("polled"))
        while polled.poll().isEmpty do Thread.sleep(1)
        val heard = CountDownLatch(1)
        val listened = Future[Int] { Thread.sleep(20); throw IllegalStateException("heard") }
        listened.onComplete(Listener((_, _) => heard.countDown()))
        heard.await()
    assertEquals(reports, Nil)

  test("a success, a cancellation and a future still running at the end are not reported"):
    val started = CountDownLatch(1)
    val reports = reported:
      Async.blocking:
        Future(2)
        val pending = Future(Promise[Int]().future.await)
        pending.cancel()
        Future:
          started.countDown()
          Promise[Int]().future.await
        started.await()
    assertEquals(reports, Nil)

  test("in a supervised scope a failure fails the scope and is not reported besides"):
    val boom = IllegalStateException("supervised")
    val reports = reported:
      val outcome = scala.util.Try(Async.blocking(supervised { settled(Future(throw boom)) }))
      assertEquals(outcome.failed.toOption, Some(boom))
    assertEquals(reports, Nil)

  test("by default a failure found at the scope's end is one line and its stack trace"):
    val got = ConcurrentLinkedQueue[Throwable]()
    val boom = IllegalStateException("default")
    val captured = java.io.ByteArrayOutputStream()
    val before = System.err
    System.setErr(java.io.PrintStream(captured, true, "UTF-8"))
    try
      UnobservedFailures.resetHandler()
      val t = Thread.ofVirtual().unstarted: () =>
        Async.blocking:
          settled(Future(throw boom))
      t.setUncaughtExceptionHandler((_, e) => got.add(e): Unit)
      t.start()
      t.join(20_000)
    finally System.setErr(before)
    val lines = captured.toString("UTF-8").linesIterator.toList
    assert(
      lines.headOption.exists(
        _.matches(
          """weft: a future failed and nobody awaited it before its scope ended \[virtual thread #\d+\]"""
        )
      ),
      lines.take(3).mkString("\n")
    )
    assertEquals(lines.lift(1), Some("java.lang.IllegalStateException: default"))
    assertEquals(got.asScala.toList, Nil) // not the thread's uncaught-exception handler

  test("a handler that throws is reported to the thread's handler, the scope still ends"):
    val got = ConcurrentLinkedQueue[Throwable]()
    val faulty = IllegalStateException("handler bug")
    val t = Thread.ofVirtual().unstarted: () =>
      UnobservedFailures.withHandler(_ => throw faulty):
        UnobservedFailures.report(IllegalStateException("x"), "a test report")
    t.setUncaughtExceptionHandler((_, e) => got.add(e): Unit)
    t.start()
    t.join(20_000)
    assertEquals(got.asScala.toList, List(faulty))

  test("a null handler is rejected at the call"):
    intercept[IllegalArgumentException](UnobservedFailures.setHandler(null))
