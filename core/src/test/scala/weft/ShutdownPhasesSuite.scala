package weft

import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.{AtomicInteger, AtomicReference}
import scala.concurrent.duration.*
import weft.ShutdownPhases.Outcome
import weft.internal.futures.FiberTask

/**
 * The phases of a `WeftApp`'s shutdown (request, drain, cancel) without a signal: an app's
 * `main` is played by a thread (platform or virtual) running `run` in a future of a root scope,
 * as `WeftApp.main` does, and the phases run on the test's thread, as on the JVM's hook.
 */
class ShutdownPhasesSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A `main` running `run`; `cancel` interrupts it, as a shutdown does. */
  final class App(virtual: Boolean, run: Async ?=> Int):
    val ended = CountDownLatch(1)
    val app = AtomicReference[Future[Int] | Null]()
    val code = AtomicReference[Either[Throwable, Int]]()
    private val body: Runnable = () =>
      try
        code.set(Right(Async.blocking:
          val f = Future(run)
          app.set(f)
          f.await
        ))
      catch case e: Throwable => code.set(Left(e))
      finally ended.countDown()
    val thread: Thread =
      if virtual then Thread.ofVirtual().start(body) else Thread.ofPlatform().start(body)

    /** Runs the phases as the hook does; returns the outcome and the counts reported. */
    def stop(shutdown: Shutdown, drain: FiniteDuration): (Outcome, Seq[Int], Int) =
      val reported = Vector.newBuilder[Int]
      val cancels = AtomicInteger()
      val outcome = ShutdownPhases.stop(
        shutdown,
        drain,
        60.seconds,
        ended,
        () => app.get,
        n => reported += n,
        () =>
          cancels.incrementAndGet(); thread.interrupt()
      )
      assert(thread.join(java.time.Duration.ofSeconds(20)), "the app's scope did not end")
      (outcome, reported.result(), cancels.get)

  /** Waits until the app has looked at the request (it then gets a drain phase). */
  private def untilObserved(shutdown: Shutdown): Unit =
    while !shutdown.isObserved do Thread.sleep(1)

  for (caller, virtual) <- Seq("platform" -> false, "virtual" -> true) do

    test(s"$caller caller: a drain that fits: run sees the request and ends; nothing cancelled"):
      val shutdown = Shutdown()
      val started = CountDownLatch(1)
      val app = App(
        virtual, {
          val inFlight = Future:
            shutdown.requested.await // the request arrives while this work is in flight
            sleep(20)
            7
          started.countDown()
          inFlight.await
        }
      )
      started.await()
      untilObserved(shutdown)
      assertEquals(app.stop(shutdown, 60.seconds), (Outcome.Drained, Nil, 0))
      assertEquals(app.code.get, Right(7))

    test(s"$caller caller: at the drain deadline what still runs is counted, then cancelled"):
      val shutdown = Shutdown()
      val started = CountDownLatch(4)
      val cleaned = AtomicInteger()
      def stuck()(using Async): Unit =
        started.countDown()
        try sleep(600_000)
        finally cleaned.incrementAndGet(): Unit
      val app = App(
        virtual, {
          val a = Future(stuck())
          val b = Future:
            Future(stuck()) // a grandchild counts too
            stuck()
          val c = Future:
            Async.group(Future(stuck()).await) // a nested scope's member counts, not the scope
          shutdown.requested.await
          Seq(a, b, c).awaitAll
          0
        }
      )
      started.await()
      untilObserved(shutdown)
      val (outcome, reported, cancels) = app.stop(shutdown, 50.millis)
      assertEquals(outcome, Outcome.CutOff(5)) // a, b, c and two below them
      assertEquals(reported, Seq(5))
      assertEquals(cancels, 1)
      assertEquals(cleaned.get, 4, "every cut-off future's finally ran")
      assert(app.code.get.isLeft, app.code.get)

    test(s"$caller caller: an app that never looked at the request is cancelled at once"):
      val shutdown = Shutdown()
      val started = CountDownLatch(1)
      val app = App(
        virtual, {
          started.countDown()
          sleep(600_000)
          0
        }
      )
      started.await()
      // a drain would last the test's deadline: there is none
      val (outcome, reported, cancels) = app.stop(shutdown, 1.hour)
      assertEquals((outcome, reported, cancels), (Outcome.Cancelled, Nil, 1))

    test(s"$caller caller: the count takes in a task with a thread of its own (IO) still running"):
      val shutdown = Shutdown()
      val started = CountDownLatch(1)
      val app = App(
        virtual, {
          // Not a runnable future: what io's operations start. It runs until it is cancelled.
          val task = new FiberTask[Unit]:
            protected def runBody(): Unit =
              while !isDone do java.util.concurrent.locks.LockSupport.parkNanos(1_000_000)
          task.link(summon[Async].group)
          summon[Async].support.start(task)
          started.countDown()
          shutdown.requested.await
          task.await
          0
        }
      )
      started.await()
      untilObserved(shutdown)
      val (outcome, reported, cancels) = app.stop(shutdown, 50.millis)
      assertEquals((outcome, reported, cancels), (Outcome.CutOff(1), Seq(1), 1))

  test("an app that ends between the drain deadline and the count was drained: nothing cut off"):
    val shutdown = Shutdown()
    assert(!shutdown.isRequested) // observed
    val ended = CountDownLatch(1)
    val cutOff = AtomicInteger(-1)
    val cancels = AtomicInteger()
    val outcome = ShutdownPhases.stop(
      shutdown,
      1.milli,
      1.hour,
      ended,
      () =>
        ended.countDown() // the app ends just as the count starts
        null
      ,
      n => cutOff.set(n),
      () => cancels.incrementAndGet(): Unit
    )
    assertEquals((outcome, cutOff.get, cancels.get), (Outcome.Drained, -1, 0))

  test("a drain wait that is interrupted does not count as drained: what is left is cancelled"):
    val shutdown = Shutdown()
    assert(!shutdown.isRequested) // observed
    val ended = CountDownLatch(1)
    val cutOff = AtomicInteger(-1)
    val cancels = AtomicInteger()
    Thread.currentThread().interrupt()
    val outcome =
      try
        ShutdownPhases.stop(
          shutdown,
          1.hour,
          1.hour,
          ended,
          () => null,
          n => cutOff.set(n),
          () =>
            cancels.incrementAndGet()
            ended.countDown() // the cancelled app ends at once
        )
      finally Thread.interrupted(): Unit
    assertEquals((outcome, cutOff.get, cancels.get), (Outcome.CutOff(0), 0, 1))

  test("the request is made once; its future and its flag see it"):
    val shutdown = Shutdown()
    assert(!shutdown.isObserved)
    assert(!shutdown.isRequested)
    assert(shutdown.isObserved, "polling the flag is looking at the request")
    assert(shutdown.request())
    assert(!shutdown.request())
    assert(shutdown.isRequested)
    assertEquals(Async.blocking(shutdown.requested.await), ())
