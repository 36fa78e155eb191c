package weft

import java.util.concurrent.{CountDownLatch, ThreadLocalRandom}
import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Success, Try}
import weft.testing.Waits
import weft.internal.futures.CoreFuture

/**
 * `Async.race`, `either` and `select`: exactly one winner, losers keep their values, every
 * losing listener is dropped, and many races sharing sources never deadlock.
 */
class RaceSuite extends munit.FunSuite, weft.testing.Deadlined:

  // the racer stress runs 200 rounds of 64 racers: generous on a loaded machine
  override def testDeadlineSeconds: Int = 120

  def core[T](f: Future[T]): CoreFuture[T] = f.asInstanceOf[CoreFuture[T]]

  /**
   * The winner drops the losing listeners right after completing the awaiter, which may
   * resume first: wait (bounded) until the sources have no listener left.
   */
  def assertNoListeners(fs: Seq[Future[?]], clue: String = ""): Unit =
    val deadline = System.nanoTime() + 10_000_000_000L
    while fs.exists(f => core(f).listenerCount > 0) && System.nanoTime() < deadline do
      Thread.sleep(1)
    fs.foreach(f => assertEquals(core(f).listenerCount, 0, clue))

  test("race returns the first value"):
    Async.blocking:
      val slow = Future { Thread.sleep(200); 1 }
      val fast = Future { 2 }
      assertEquals(Async.await(Async.race(slow, fast)), Success(2))

  test("race of an already completed source wins at once"):
    Async.blocking:
      val never = Promise[Int]()
      assertEquals(Async.await(Async.race(never.future, Future.now(Success(9)))), Success(9))
      assertNoListeners(Seq(never.future))

  test("either says which side won"):
    Async.blocking:
      val l = Future { Thread.sleep(100); "left" }
      val r = Future(42)
      assertEquals(Async.await(Async.either(l, r)), Right(Success(42)))

  test("losing listeners are dropped from every source"):
    Async.blocking:
      val ps = (1 to 50).map(_ => Promise[Int]())
      val winner = Future { Thread.sleep(10); ps(17).success(17) }
      assertEquals(Async.await(Async.race(ps.map(_.future)*)), Success(17))
      assertNoListeners(ps.map(_.future))
      winner.await

  test("a nested race shares one winner"):
    Async.blocking:
      val a, b, c = Promise[Int]()
      val inner = Async.race(a.future, b.future)
      val outer = Async.race(inner, c.future)
      val done = Future(Async.await(outer))
      Thread.sleep(10)
      b.success(2)
      c.success(3)
      assertEquals(done.value, Success(2))
      assertNoListeners(Seq(a, b, c).map(_.future))

  test("select runs the handler of exactly one case"):
    Async.blocking:
      val fired = AtomicInteger()
      val a = Promise[Int]()
      val b = Future { Thread.sleep(10); "b" }
      val out = Async.select(
        a.future ~~> (_ =>
          fired.incrementAndGet(); "a"
        ),
        b ~~> (r =>
          fired.incrementAndGet(); r.get + "!"
        )
      )
      assertEquals(out, "b!")
      assertEquals(fired.get, 1)
      assertNoListeners(Seq(a.future))

  test("select with ~~> syntax"):
    Async.blocking:
      val r =
        Async.select(Future.now(Success(1)) ~~> (_.get + 1), Promise[Int]().future ~~> (_ => 0))
      assertEquals(r, 2)

  test("stress: many racers share sources; exactly one winner each; nothing left registered"):
    val racers = 64
    val rounds = 200
    for round <- 1 to rounds do
      val sources = IndexedSeq.fill(8)(Promise[Int]())
      val wins = AtomicInteger()
      val ready = CountDownLatch(racers)
      Async.blocking:
        val rs = (1 to racers).map: _ =>
          Future:
            val rnd = ThreadLocalRandom.current()
            val picked = IndexedSeq.fill(3)(sources(rnd.nextInt(sources.size)).future).distinct
            ready.countDown()
            val r = Async.await(Async.race(picked*))
            wins.incrementAndGet()
            r
        Waits.latch(ready, s"round $round: every racer registered")
        // complete sources concurrently from several threads, in random order
        val completers = sources.indices.map: i =>
          Future(sources(i).tryComplete(Success(i)))
        completers.foreach(c => Waits.within(c, s"round $round: a completer"))
        rs.foreach(r => assert(Waits.within(r, s"round $round: a racer").isSuccess))
      assertEquals(wins.get, racers, s"round $round")
      assertNoListeners(sources.map(_.future), s"round $round")

  test("stress: racing awaiters cancelled at random leave no listener behind"):
    val sources = IndexedSeq.fill(4)(Promise[Int]())
    Async.blocking:
      val rnd = ThreadLocalRandom.current()
      val fs = (1 to 500).map: _ =>
        Future(Async.await(Async.race(sources.map(_.future)*)))
      fs.foreach(f => if rnd.nextBoolean() then f.cancel())
      Thread.sleep(20)
      fs.foreach(f => if rnd.nextInt(4) == 0 then f.cancel())
      sources(rnd.nextInt(4)).success(1)
      fs.foreach(_.result)
    assertNoListeners(sources.map(_.future))

  test("a race whose listener is gone leaves its sources at the first offer it declines"):
    val outer = NumberedLock()
    val k = new Listener[Try[Int]]:
      val lock: ListenerLock | Null = outer
      def complete(data: Try[Int], source: Source[Try[Int]]): Unit = ()
    val a = Promise[Int]()
    val b = Promise[Int]()
    Async.race(a.future, b.future).onComplete(k)
    assertEquals(core(b.future).listenerCount, 1)
    assert(outer.acquire())
    outer.retire() // `k` was completed elsewhere (through another source it waited on)
    a.success(1) // declined: the race can never complete `k` now
    assertEquals(core(b.future).listenerCount, 0, "the dead race stayed registered")

  test("a select of bare sources does not compile, and the error names ~~>"):
    val errors = compileErrors("Async.blocking(Async.select(Future(1), Future(2)))")
    assert(errors.contains("~~>"), errors)
    assert(errors.contains("Async.select takes cases"), errors)
    assertEquals(compileErrors("Async.blocking(Async.select(Future(1) ~~> (_ => 0)))"), "")
