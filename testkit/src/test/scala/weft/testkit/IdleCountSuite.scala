package weft.testkit

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicInteger
import scala.jdk.CollectionConverters.*
import weft.runtime.{AsyncSupport, Fiber, FiberDomain}
import weft.testing.Deadlined

/**
 * The count under the idle detection, checked deterministically on a domain that records its
 * hooks: a wake is counted by the waker before the woken fiber runs, and a wake that comes while
 * the fiber still runs is kept, so its next park never counts it waiting. Either mistake would
 * let the count read zero while a fiber can run, and the clock move under it; the windows are
 * too short for a stress test to hit reliably.
 */
class IdleCountSuite extends Deadlined:

  /** A domain that counts its members and records who counted each one runnable. */
  private final class Recording extends FiberDomain:
    val count = AtomicInteger(0)
    val waitingCalls = AtomicInteger(0)
    val runnableBy = ConcurrentLinkedQueue[Thread]()
    def support: AsyncSupport = AsyncSupport.default
    protected def onRunnable(): Unit =
      runnableBy.add(Thread.currentThread())
      count.incrementAndGet(): Unit
    protected def onWaiting(): Unit =
      waitingCalls.incrementAndGet()
      count.decrementAndGet(): Unit

  /** Runs `test` with `d` open, closing it after. */
  private def withDomain(test: Recording => Unit): Unit =
    val d = Recording()
    d.open()
    try test(d)
    finally d.close()

  /** Waits (real time, bounded) until `cond` holds. */
  private def eventually(what: String)(cond: => Boolean): Unit =
    val end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10)
    while !cond do
      assert(System.nanoTime() - end < 0, s"not within 10 s: $what")
      Thread.sleep(1)

  test("a wake while the fiber runs is kept: its next park does not count it waiting"):
    withDomain: d =>
      val done = CountDownLatch(1)
      @volatile var waitedInPark = -1
      d.start(
        AsyncSupport.default,
        () =>
          val before = d.waitingCalls.get
          Fiber.current.unpark() // as a waker does before this fiber parks
          Fiber.park(this) // returns at once, on the permit
          waitedInPark = d.waitingCalls.get - before
          done.countDown()
      ): Unit
      assert(done.await(10, TimeUnit.SECONDS), "the member did not end")
      assertEquals(waitedInPark, 0, "the member was counted waiting while it could run")
      eventually("the member ends")(d.count.get == 0)

  test("a parked fiber is counted runnable by its waker, before it runs"):
    withDomain: d =>
      @volatile var go = false
      val done = CountDownLatch(1)
      val member = d.start(
        AsyncSupport.default,
        () =>
          while !go do Fiber.park(this)
          done.countDown()
      )
      eventually("the member parks")(d.count.get == 0 && d.snapshot().exists(_.parkedInWeft))
      d.runnableBy.clear()
      go = true
      member.unpark()
      // Counted on this thread, inside `unpark`: before the member could run at all.
      assertEquals(d.runnableBy.asScala.toList, List(Thread.currentThread()))
      assert(done.await(10, TimeUnit.SECONDS), "the member did not end")
      eventually("the member ends")(d.count.get == 0)

  test("an interrupt of a parked fiber counts it runnable before it runs"):
    withDomain: d =>
      val done = CountDownLatch(1)
      val member = d.start(
        AsyncSupport.default,
        () =>
          while !Thread.currentThread().isInterrupted do Fiber.park(this)
          done.countDown()
      )
      eventually("the member parks")(d.count.get == 0 && d.snapshot().exists(_.parkedInWeft))
      d.runnableBy.clear()
      member.interrupt()
      assertEquals(d.runnableBy.asScala.toList, List(Thread.currentThread()))
      assert(done.await(10, TimeUnit.SECONDS), "the member did not end")
