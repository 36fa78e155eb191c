package weft.testkit

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import java.util.concurrent.atomic.AtomicReference
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import scala.util.Try
import weft.*
import weft.channels.*
import weft.testing.Deadlined

/**
 * A virtual-time scope is structured: however it ends (a value, the body's exception, its
 * cancellation, a deadlock, a blocked fiber) no fiber of it is left, no timer is pending, and
 * the next scope starts at zero; scopes side by side do not disturb each other.
 */
class VirtualScopeSuite extends Deadlined:

  /** The threads of a scope's fibers, recorded inside them. */
  private final class Threads:
    private val all = ConcurrentLinkedQueue[Thread]()

    /** Records the calling fiber. */
    def mark(): Unit = all.add(Thread.currentThread()): Unit

    /** Every recorded fiber ends within a (generous) real-time deadline. */
    def assertAllEnd(): Unit =
      assert(!all.isEmpty, "no fiber recorded")
      for t <- all.asScala do
        t.join(10_000)
        assert(!t.isAlive, s"$t is still alive:\n${t.getStackTrace.mkString("\n")}")

  /** Runs `body` on a driver of its own, then checks it left nothing behind. */
  private def runChecked[T](config: VirtualTimeConfig = VirtualTimeConfig())(
      body: (VirtualClock, Async) ?=> T
  ): Try[T] =
    val d = Driver(config)
    val r = Try(d.run(body))
    assertEquals(d.liveFibers.map(_.name), Nil, "fibers of the scope still counted")
    assertEquals(d.scheduler.pendingCount, 0, "timers still pending")
    r

  /**
   * A body that starts futures that wait on time, on a channel and on a future; with `periodic`,
   * also a loop of sleeps and a ticker, which keep a timer pending for ever (no deadlock then).
   */
  private def busyBody(threads: Threads, periodic: Boolean = true)(using
      VirtualClock,
      Async
  ): Unit =
    threads.mark()
    val ch = SyncChannel[Int]()
    Future { threads.mark(); sleep(1.hour) }
    Future { threads.mark(); ch.read() }
    Future { threads.mark(); Promise[Int]().future.await }
    Timer(1.day) // never cancelled: dies with the scope
    if periodic then
      Future { threads.mark(); while true do sleep(1.second) }
      Ticker(1.minute)
    sleep(10.seconds)

  private def assertFreshScope(): Unit =
    val t = VirtualTime.run:
      val before = currentTime
      sleep(1.second)
      (before, currentTime)
    assertEquals(t, (Duration.Zero, 1.second))

  test("a body's value: its futures cancelled and ended, no timer left, the next scope at 0"):
    val threads = Threads()
    val r = runChecked():
      busyBody(threads)
      currentTime
    assertEquals(r.get, 10.seconds)
    threads.assertAllEnd()
    assertFreshScope()

  test("a body's exception propagates unchanged, and the scope is cleaned up"):
    val threads = Threads()
    val boom = IllegalStateException("boom")
    val r = runChecked():
      busyBody(threads)
      throw boom
    assert(r.failed.get eq boom, r.toString)
    assertEquals(boom.getSuppressed.toList, Nil)
    threads.assertAllEnd()
    assertFreshScope()

  test("a body that ends cancelled throws its CancellationException"):
    val threads = Threads()
    val stop = CancellationException("stop")
    val r = runChecked():
      busyBody(threads)
      throw stop
    assert(r.failed.get eq stop, r.toString)
    threads.assertAllEnd()

  test("a deadlock ends the scope cleanly"):
    val threads = Threads()
    val r = runChecked():
      busyBody(threads, periodic = false)
      val s = Semaphore(1)
      Future { threads.mark(); s.acquire(); s.acquire() }.await
    assert(r.failed.get.isInstanceOf[DeadlockException], r.toString)
    assertEquals(r.failed.get.asInstanceOf[DeadlockException].at, 1.day) // after the Timer rang
    threads.assertAllEnd()
    assertFreshScope()

  test("a blocked fiber ends the scope cleanly"):
    val threads = Threads()
    val r = runChecked(VirtualTimeConfig(blockedLimit = 100.millis)):
      busyBody(threads)
      Future { threads.mark(); Thread.sleep(600_000) }.await
    assert(r.failed.get.isInstanceOf[BlockedFiberException], r.toString)
    threads.assertAllEnd()
    assertFreshScope()

  test("the caller interrupted: the body is cancelled and the interrupt kept"):
    val started = CountDownLatch(1)
    val outcome = AtomicReference[Try[Unit]]()
    val interruptKept = AtomicReference[Boolean](false)
    val threads = Threads()
    val caller = Thread.ofPlatform().start: () =>
      val d = Driver(VirtualTimeConfig())
      // Not `Try`: an `InterruptedException` is not a `NonFatal` it would catch.
      val r =
        try
          d.run:
            threads.mark()
            started.countDown()
            while true do sleep(1.hour) // virtual time runs on until the caller is interrupted
          scala.util.Success(())
        catch case e: Throwable => scala.util.Failure(e)
      outcome.set(r)
      interruptKept.set(Thread.currentThread().isInterrupted)
      if d.liveFibers.nonEmpty then outcome.set(Try(throw AssertionError(d.liveFibers)))
    started.await()
    caller.interrupt()
    caller.join(10_000)
    assert(!caller.isAlive, "the scope did not end when its caller was interrupted")
    val r = outcome.get
    assert(r.isFailure, r.toString)
    assert(
      r.failed.get.isInstanceOf[CancellationException] ||
        r.failed.get.isInstanceOf[InterruptedException],
      r.toString
    )
    assert(interruptKept.get, "the caller's interrupt status was lost")
    threads.assertAllEnd()

  /** A scope with its own rhythm, asserting its own times exactly. */
  private def rhythm(step: FiniteDuration, n: Int): List[FiniteDuration] =
    VirtualTime.run:
      val seen = List.newBuilder[FiniteDuration]
      val other = Future((1 to n).foreach(_ => sleep(step * 3)))
      for _ <- 1 to n do
        sleep(step)
        seen += currentTime
      other.await
      assertEquals(currentTime, step * 3 * n)
      seen.result()

  test("two scopes at once, from two platform threads, keep their own clocks"):
    val results = AtomicReference(Map.empty[String, Try[List[FiniteDuration]]])
    def on(name: String, step: FiniteDuration) = Thread.ofPlatform().start: () =>
      val r = Try(rhythm(step, 2_000))
      results.updateAndGet(_ + (name -> r)): Unit
    val a = on("a", 1.second)
    val b = on("b", 7.millis)
    a.join(20_000)
    b.join(20_000)
    assertEquals(results.get()("a").get, (1 to 2_000).map(_.seconds).toList)
    assertEquals(results.get()("b").get, (1 to 2_000).map(i => (7 * i).millis).toList)

  test("one scope after the other, and from a virtual-thread caller"):
    assertEquals(rhythm(1.second, 10), (1 to 10).map(_.seconds).toList)
    assertEquals(rhythm(1.second, 10), (1 to 10).map(_.seconds).toList)
    val r = AtomicReference[Try[List[FiniteDuration]]]()
    val t = Thread.ofVirtual().start(() => r.set(Try(rhythm(1.minute, 10))))
    t.join(20_000)
    assertEquals(r.get.get, (1 to 10).map(_.minutes).toList)
