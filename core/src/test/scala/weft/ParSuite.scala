package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import java.util.concurrent.atomic.AtomicInteger
import scala.jdk.CollectionConverters.*
import weft.internal.async.Cancellation

/**
 * `par`, `parLimit`, `mapPar`, `foreachPar`, `collectPar`: order, the parallelism bound, fail
 * fast with suppressed later failures, cancellation of the caller, nothing left running.
 */
class ParSuite extends munit.FunSuite, weft.testing.StressChecks, weft.testing.Deadlined:

  val boom = IllegalStateException("boom")

  /** Records the threads of the bodies, to check none outlives the call. */
  val threads = ConcurrentLinkedQueue[Thread]()
  def mark(): Unit = threads.add(Thread.currentThread()): Unit
  def assertNoThreadLeft(): Unit =
    val alive = threads.asScala.filter(t => t.isAlive && (t ne Thread.currentThread()))
    assertEquals(alive.toList, Nil, "a task's thread outlived the call")
    threads.clear()

  /** Counts the bodies running at once, keeping the highest count. */
  final class Gauge:
    private val now = AtomicInteger()
    private val top = AtomicInteger()
    def inside[T](body: => T): T =
      top.accumulateAndGet(now.incrementAndGet(), math.max)
      try body
      finally now.decrementAndGet(): Unit
    def most: Int = top.get

  test("par returns the values in the order of the tasks"):
    Async.blocking:
      val r = par({ sleep(30); "a" }, "b", { sleep(10); "c" })
      assertEquals(r, Seq("a", "b", "c"))
      assertEquals(par[Int](), Seq.empty)

  test("par runs its tasks at once"):
    // each task waits until all three have started: it can end only if all run together
    holdsIn(20):
      val started = CountDownLatch(3)
      Async.blocking:
        def task(i: Int)(using Async): Int =
          started.countDown()
          started.await()
          i
        assertEquals(par(task(1), task(2), task(3)), Seq(1, 2, 3))

  test("mapPar keeps order and collection type, with at most n bodies at once"):
    Async.blocking:
      val g = Gauge()
      val r: List[Int] = (1 to 200).toList.mapPar(3) { i =>
        g.inside:
          if i % 7 == 0 then sleep(1) else Thread.onSpinWait()
          i * 2
      }
      assertEquals(r, (1 to 200).map(_ * 2).toList)
      assert(g.most <= 3, s"${g.most} bodies ran at once with parallelism 3")
      val v: Vector[String] = Vector(3, 1, 2).mapPar(8)(i => i.toString)
      assertEquals(v, Vector("3", "1", "2"))
      assertEquals(List.empty[Int].mapPar(2)(_ + 1), Nil)

  test("parLimit bounds the tasks running at once"):
    Async.blocking:
      val g = Gauge()
      val tasks = (1 to 50).map(i => (a: Async) ?=> g.inside { sleep(1); i })
      assertEquals(parLimit(4)(tasks*), 1 to 50)
      assert(g.most <= 4, s"${g.most} tasks ran at once with parallelism 4")

  test("foreachPar runs every element once"):
    Async.blocking:
      val seen = ConcurrentLinkedQueue[Int]()
      (1 to 100).foreachPar(5)(i => seen.add(i): Unit)
      assertEquals(seen.asScala.toList.sorted, (1 to 100).toList)

  test("collectPar keeps the defined elements in order"):
    Async.blocking:
      val r = List(1, 2, 3, 4, 5, 6).collectPar(2) { case i if i % 2 == 0 => sleep(7 - i); i * 10 }
      assertEquals(r, List(20, 40, 60))

  test("a task can await, with its own context"):
    Async.blocking:
      val r = List(1, 2, 3).mapPar(2)(i => Future(i + 1).await)
      assertEquals(r, List(2, 3, 4))

  test("the first failure cancels the rest, waits for them, and is thrown"):
    holdsIn(20):
      val ended = AtomicInteger()
      val ran = AtomicInteger()
      Async.blocking:
        val e = intercept[IllegalStateException]:
          (1 to 100).toList.mapPar(4) { i =>
            mark()
            ran.incrementAndGet()
            try if i == 3 then throw boom else sleep(60_000)
            finally ended.incrementAndGet(): Unit
          }
        assert(e eq boom, e)
        assertEquals(e.getSuppressed.toList, Nil, "a cancellation was reported as a failure")
        assertEquals(ended.get, ran.get, "a task was still running when the call threw")
        assert(ran.get <= 4, s"${ran.get} tasks started after the first failure")
      assertNoThreadLeft()

  test("failures that happen meanwhile are added as suppressed"):
    holdsIn(20):
      val arrived = AtomicInteger()
      // An uninterruptible barrier: a latch's await would throw InterruptedException in a task
      // that the first failure cancels before it has left the latch (seen in CI). It spins with
      // `Fiber.spinPause`, not `Thread.yield` alone: two tasks yielding on the two carriers
      // starved the third, started from the platform thread entering the scope (a 20 s hang).
      def barrier(): Unit =
        arrived.incrementAndGet(): Unit
        var i = 0
        while arrived.get < 3 do
          weft.runtime.Fiber.spinPause(i)
          i += 1
      Async.blocking:
        val e = intercept[RuntimeException]:
          par(
            { barrier(); throw RuntimeException("a") },
            { barrier(); throw RuntimeException("b") },
            { barrier(); throw RuntimeException("c") }
          )
        // the three fail together: one is thrown, the two others ride along (past the barrier
        // nothing can stop them from throwing, and the call waits for them)
        val names = (e +: e.getSuppressed.toSeq).map(_.getMessage).sorted
        assertEquals(names, Seq("a", "b", "c"))

  test("cancelling the caller cancels every task and waits for them"):
    holdsIn(20):
      val started = CountDownLatch(2)
      val ended = AtomicInteger()
      Async.blocking:
        val caller = Future:
          (1 to 10).toList.foreachPar(2) { _ =>
            mark()
            started.countDown()
            try sleep(60_000)
            finally ended.incrementAndGet(): Unit
          }
        started.await()
        caller.cancel()
        assert(caller.result.failed.get.isInstanceOf[CancellationException])
      assertEquals(ended.get, 2)
      assertNoThreadLeft()

  test("a scope already cancelled runs no task"):
    Async.blocking:
      val ran = AtomicInteger()
      val inside = CountDownLatch(1)
      val f = Future:
        inside.countDown()
        while !Cancellation.pending do Thread.onSpinWait()
        List(1, 2).mapPar(2)(_ => ran.incrementAndGet())
      inside.await()
      f.cancel()
      assert(f.result.isFailure)
      assertEquals(ran.get, 0)

  test("parallelism below 1 is rejected at the call, naming the parameter"):
    def rejects(n: Int)(using Async): Unit =
      val e = intercept[IllegalArgumentException](List(1).mapPar[Int](n)(x => x))
      assert(e.getMessage.contains("parallelism"), e.getMessage)
      intercept[IllegalArgumentException](parLimit[Int](n)(1))
      intercept[IllegalArgumentException](List(1).foreachPar(n)(_ => ()))
      intercept[IllegalArgumentException](List(1).collectPar[Int](n) { case x => x })
      // rejected even with nothing to do
      intercept[IllegalArgumentException](List.empty[Int].mapPar[Int](n)(x => x))
    Async.blocking:
      rejects(0)
      rejects(-1)

  test("futures a task starts do not outlive the call"):
    holdsIn(20):
      val started = AtomicInteger()
      val ended = AtomicInteger()
      Async.blocking:
        List(1, 2).mapPar(2) { _ =>
          Future:
            mark()
            started.incrementAndGet()
            try sleep(60_000)
            finally ended.incrementAndGet(): Unit
          1
        }
        // a child cancelled before its fiber started never runs; every one that ran has ended
        assertEquals(ended.get, started.get)
      assertNoThreadLeft()

  def holdsIn(seconds: Int)(body: => Unit): Unit = withinDeadline(seconds, "weft-par-")(body)
