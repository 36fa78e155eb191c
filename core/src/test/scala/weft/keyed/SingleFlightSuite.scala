package weft.keyed

import java.util.concurrent.{CancellationException, CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.{AtomicInteger, AtomicReference}
import scala.concurrent.duration.DurationInt
import scala.util.{Failure, Success, Try}
import weft.*

/**
 * `SingleFlight`: concurrent callers of a key share one computation; a caller that gives up
 * leaves the others served; the last to leave cancels it; a failure is shared, not kept; no state
 * is left for an idle key. Callers enter from platform threads (each its own `Async.blocking`)
 * and from virtual ones (futures); [[SingleFlightOnVirtualThreadSuite]] runs the owner's scope
 * on a virtual thread too.
 */
class SingleFlightSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** Waits until `n` callers wait for `key` (bounded by the test's deadline). */
  private def awaitWaiting(sf: SingleFlight[String, ?], key: String, n: Int): Unit =
    while sf.waiting(key) != n do Thread.sleep(1)

  /** Calls `sf(key)(compute)` from a platform thread with its own scope; the outcome goes to `out`. */
  private def platformCaller[V](sf: SingleFlight[String, V], key: String)(compute: => V)(
      out: AtomicReference[Try[V] | Null]
  ): Thread =
    Thread.ofPlatform().start(() => out.set(Try(Async.blocking(sf(key)(compute)))))

  test("50 concurrent callers of one key share one computation"):
    val computations = AtomicInteger()
    val release = CountDownLatch(1)
    def compute(): Int =
      computations.incrementAndGet()
      release.await()
      42
    Async.blocking:
      val sf = SingleFlight[String, Int]()
      val virtual = (1 to 25).map(_ => Future(sf("k")(compute())))
      val outs = (1 to 25).map(_ => AtomicReference[Try[Int] | Null]())
      val platform = outs.map(out => platformCaller(sf, "k")(compute())(out))
      awaitWaiting(sf, "k", 50)
      release.countDown()
      assertEquals(virtual.map(_.await), Seq.fill(25)(42))
      platform.foreach(_.join())
      assertEquals(outs.map(_.get), Seq.fill(25)(Success(42): Try[Int]))
      assertEquals(computations.get, 1, "the callers did not share one computation")
      assertEquals(sf.inFlight, 0, "an idle key left state")

  test("a caller that gives up leaves the computation to the others"):
    val release = CountDownLatch(1)
    val interrupted = AtomicInteger()
    def compute(): Int =
      try release.await()
      catch
        case e: InterruptedException =>
          interrupted.incrementAndGet()
          throw e
      7
    Async.blocking:
      val sf = SingleFlight[String, Int]()
      val stays = Future(sf("k")(compute()))
      awaitWaiting(sf, "k", 1) // the first caller stays: no give-up can abandon the key
      val leaves = Future(sf("k")(compute()))
      val out = AtomicReference[Try[Int] | Null]()
      val platform = platformCaller(sf, "k")(compute())(out)
      val timesOut = Future(withTimeoutOption(1.millis)(sf("k")(compute())))
      assertEquals(timesOut.await, None)
      awaitWaiting(sf, "k", 3)
      leaves.cancel()
      assert(leaves.result.failed.get.isInstanceOf[CancellationException], leaves.result)
      awaitWaiting(sf, "k", 2)
      release.countDown()
      assertEquals(stays.await, 7)
      platform.join()
      assertEquals(out.get, Success(7))
      assertEquals(interrupted.get, 0, "a caller's give-up cancelled the shared computation")
      assertEquals(sf.inFlight, 0)

  test("the last caller to leave cancels the computation, whose fiber ends"):
    val started = CountDownLatch(1)
    val ended = CountDownLatch(1)
    val wasInterrupted = AtomicInteger()
    def compute(): Int =
      started.countDown()
      try
        CountDownLatch(1).await() // until interrupted
        0
      catch
        case e: InterruptedException =>
          wasInterrupted.incrementAndGet()
          throw e
      finally ended.countDown()
    Async.blocking:
      val sf = SingleFlight[String, Int]()
      val a = Future(sf("k")(compute()))
      started.await()
      awaitWaiting(sf, "k", 1)
      val out = AtomicReference[Try[Int] | Null]()
      val platform = Thread.ofPlatform().start: () =>
        out.set(Try(Async.blocking(withTimeout(50.millis)(sf("k")(compute())))))
      platform.join() // the platform caller leaves first: its timeout
      assert(out.get.nn.isFailure, out.get)
      awaitWaiting(sf, "k", 1)
      assertEquals(ended.getCount, 1L, "the computation ended while a caller still waited")
      a.cancel()
      assert(ended.await(10, TimeUnit.SECONDS), "the abandoned computation never ended")
      assertEquals(wasInterrupted.get, 1, "the abandoned computation was not interrupted")
      assertEquals(sf.inFlight, 0, "an abandoned key left state")
      assertEquals(sf("k")(5), 5, "the key did not compute again after it was abandoned")

  test("a failure is shared by the callers waiting, then the key computes again"):
    val computations = AtomicInteger()
    val release = CountDownLatch(1)
    val boom = IllegalStateException("boom")
    def failing(): Int =
      computations.incrementAndGet()
      release.await()
      throw boom
    Async.blocking:
      val sf = SingleFlight[String, Int]()
      val callers = (1 to 10).map(_ => Future(sf("k")(failing())))
      val out = AtomicReference[Try[Int] | Null]()
      val platform = platformCaller(sf, "k")(failing())(out)
      awaitWaiting(sf, "k", 11)
      release.countDown()
      callers.foreach(c => assert(c.result.failed.get eq boom, c.result))
      platform.join()
      assert(out.get.nn.failed.get eq boom, out.get)
      assertEquals(computations.get, 1)
      assertEquals(sf.inFlight, 0, "a failed key left state")
      assertEquals(sf("k")(computations.incrementAndGet()), 2, "the failure was kept")

  test("an abandoned computation that runs on removes its own entry only, not a newer one"):
    val releaseOld = CountDownLatch(1)
    val releaseNew = CountDownLatch(1)
    val oldThread = AtomicReference[Thread | Null]()
    val computations = AtomicInteger()
    def stubborn(): Int = // ignores its cancellation until released
      oldThread.set(Thread.currentThread())
      computations.incrementAndGet()
      var released = false
      while !released do
        try
          releaseOld.await()
          released = true
        catch case _: InterruptedException => ()
      1
    Async.blocking:
      val sf = SingleFlight[String, Int]()
      val first = Future(sf("k")(stubborn()))
      while oldThread.get == null do Thread.sleep(1)
      first.cancel() // its only caller leaves: the key is abandoned, the computation runs on
      while sf.inFlight != 0 do Thread.sleep(1)
      val second = Future(sf("k") { computations.incrementAndGet(); releaseNew.await(); 2 })
      awaitWaiting(sf, "k", 1)
      releaseOld.countDown()
      oldThread.get.nn.join() // the old computation has ended, and removed what it removes
      assertEquals(sf.inFlight, 1, "the old computation removed the newer flight's entry")
      val third = Future(sf("k") { computations.incrementAndGet(); 3 })
      awaitWaiting(sf, "k", 2)
      releaseNew.countDown()
      assertEquals((second.await, third.await, computations.get), (2, 2, 2))

  test("a computation whose fiber cannot start wakes the callers that joined it"):
    val joined = CountDownLatch(1)
    val refusing = new weft.runtime.AsyncSupport:
      def start(body: Runnable): weft.runtime.Fiber =
        joined.await() // a second caller joins the flight meanwhile
        throw java.util.concurrent.RejectedExecutionException("no fibers")
      def scheduler: weft.runtime.Scheduler = weft.runtime.AsyncSupport.default.scheduler
      def clock: weft.runtime.Clock = weft.runtime.AsyncSupport.default.clock
    val root = CompletionGroup()
    val owner = weft.internal.async.AsyncContext(root, null, refusing)
    val sf = SingleFlight[String, Int]()(using owner)
    val starter = AtomicReference[Try[Int] | Null]()
    val joiner = AtomicReference[Try[Int] | Null]()
    val a = platformCaller(sf, "k")(1)(starter)
    awaitWaiting(sf, "k", 1)
    val b = platformCaller(sf, "k")(2)(joiner)
    awaitWaiting(sf, "k", 2)
    joined.countDown()
    a.join()
    b.join() // hangs (and the test's deadline fails it) if the joiner is never woken
    assert(starter.get.nn.failed.get.isInstanceOf[java.util.concurrent.RejectedExecutionException])
    assert(joiner.get.nn.failed.get.isInstanceOf[CancellationException], joiner.get)
    assertEquals(sf.inFlight, 0)
    root.cancel()

  test("a caller whose scope is cancelled starts nothing: it throws at once"):
    val started = AtomicInteger()
    Async.blocking:
      val sf = SingleFlight[String, Int]()
      val r = Try:
        Async.group:
          summon[Async].group.cancel()
          sf("k") { started.incrementAndGet(); 1 }
      assert(r.failed.get.isInstanceOf[CancellationException], r)
      assertEquals(sf.inFlight, 0)
    // the owner's scope has ended: a computation started by mistake would have run or been joined
    assertEquals(started.get, 0, "a cancelled caller started the computation")

  test("when the owner's scope ends, its computations are cancelled and later calls fail"):
    val ended = CountDownLatch(1)
    Async.blocking:
      val outer = Scope.current
      val (sf, waiter) = Async.group:
        val sf = SingleFlight[String, Int]()
        val waiter = outer.fork(sf("k") {
          try CountDownLatch(1).await()
          finally ended.countDown(); 1
        })
        awaitWaiting(sf, "k", 1)
        (sf, waiter)
      assertEquals(ended.getCount, 0L, "the owner's scope ended before its computation")
      assert(waiter.result.failed.get.isInstanceOf[CancellationException], waiter.result)
      assertEquals(sf.inFlight, 0)
      intercept[CancellationException](sf("k")(2))

  test("a supervised owner is not failed by a computation's failure"):
    val got = Async.blocking:
      supervised:
        val sf = SingleFlight[String, Int]()
        Try(sf("k")(throw IllegalStateException("boom")))
    assert(got.failed.get.isInstanceOf[IllegalStateException], got)

  test("keys are independent, and a null key is refused"):
    Async.blocking:
      val sf = SingleFlight[String, String]()
      val release = CountDownLatch(1)
      val a = Future(sf("a") { release.await(); "A" })
      awaitWaiting(sf, "a", 1)
      assertEquals(sf("b")("B"), "B") // not held up by the busy key
      assertEquals(sf.inFlight, 1)
      release.countDown()
      assertEquals(a.await, "A")
      val e = intercept[IllegalArgumentException](sf(null.asInstanceOf[String])("x"))
      assert(e.getMessage.contains("null"), e.getMessage)

/** [[SingleFlightSuite]] with the owner's scope entered from a virtual thread. */
class SingleFlightOnVirtualThreadSuite extends SingleFlightSuite, weft.OnVirtualThread
