package weft

import java.util.concurrent.{CancellationException, CompletableFuture}
import scala.concurrent.{Await, ExecutionContext, Future as ScalaFuture, Promise as ScalaPromise}
import scala.concurrent.duration.*
import scala.util.{Failure, Success}
import weft.interop.*

/** Conversions to and from `scala.concurrent.Future` and `CompletableFuture`. */
class InteropSuite extends munit.FunSuite, weft.testing.Deadlined:

  given ExecutionContext = ExecutionContext.global

  test("a Scala future awaited in direct style"):
    Async.blocking:
      assertEquals(ScalaFuture(21 * 2).asWeft.value, 42)
      val boom = IllegalStateException("x")
      assertEquals(ScalaFuture.failed[Int](boom).asWeft.result, Failure(boom))

  test("a weft future as a Scala future"):
    Async.blocking:
      val sf = Future(5).asScala
      assertEquals(Await.result(sf, 5.seconds), 5)

  test("a future escaping its scope is cancelled, and so is its Scala view"):
    val sf = Async.blocking(Future { Thread.sleep(60_000); 5 }.asScala)
    assert(Await.ready(sf, 5.seconds).value.get.failed.get.isInstanceOf[CancellationException])

  test("a CompletableFuture awaited in direct style; exceptions are unwrapped"):
    Async.blocking:
      assertEquals(CompletableFuture.supplyAsync(() => "cf").asWeft.value, "cf")
      val boom = IllegalStateException("y")
      val failed = CompletableFuture.supplyAsync[String](() => throw boom)
      assertEquals(failed.asWeft.result, Failure(boom))

  test("cancelling the weft view cancels the CompletableFuture"):
    val cf = CompletableFuture[Int]()
    val view = cf.asWeft
    view.cancel()
    assert(cf.isCancelled)

  test("cancelling the CompletableFuture view cancels the weft future"):
    val p = Promise[Int]()
    val cf = p.future.asCompletableFuture
    cf.cancel(true)
    assert(p.future.poll().get.failed.get.isInstanceOf[CancellationException])

  test("a weft future as a CompletableFuture"):
    Async.blocking:
      assertEquals(Future("v").asCompletableFuture.get(), "v")

  test("a cancelled weft future gives a cancelled CompletableFuture"):
    val p = Promise[Int]()
    val cf = p.future.asCompletableFuture
    p.future.cancel()
    assert(cf.isCancelled)

  test("a Scala promise completed later wakes the awaiting future"):
    val sp = ScalaPromise[Int]()
    Async.blocking:
      val f = Future(sp.future.asWeft.value)
      sp.success(8)
      assertEquals(f.value, 8)

  /**
   * Runs `rounds` rounds of: `setup`, then `a` on this thread and `b` on a partner platform
   * thread at the same moment (a spin handshake starts both), then `check` once both are done.
   * Returns how many rounds `check` rejected; fails if a round takes more than 10 s.
   */
  private def raceRounds[S](rounds: Int)(setup: Int => S)(a: S => Unit)(b: S => Unit)(
      check: S => Boolean
  ): Int =
    val state = java.util.concurrent.atomic.AtomicReference[Any]()
    val published = java.util.concurrent.atomic.AtomicInteger(-1)
    val arrived = java.util.concurrent.atomic.AtomicInteger(-1)
    val finished = java.util.concurrent.atomic.AtomicInteger(-1)
    def spinUntil(what: String)(cond: => Boolean): Unit =
      val deadline = System.nanoTime() + 10_000_000_000L
      var spins = 0
      while !cond do
        spins += 1
        if (spins & 1023) == 0 then
          if System.nanoTime() - deadline > 0 then throw AssertionError(s"stuck waiting: $what")
          Thread.`yield`()
        else Thread.onSpinWait()
    val partner = Thread.ofPlatform().start: () =>
      try
        for i <- 0 until rounds do
          spinUntil(s"round $i published")(published.get == i)
          arrived.set(i)
          b(state.get.asInstanceOf[S])
          finished.set(i)
      catch case _: AssertionError => ()
    var bad = 0
    try
      for i <- 0 until rounds do
        val s = setup(i)
        state.set(s)
        published.set(i)
        spinUntil(s"partner at round $i")(arrived.get == i)
        a(s)
        spinUntil(s"partner done with round $i")(finished.get == i)
        if !check(s) then bad += 1
    finally partner.join(10_000)
    bad

  /** Whether a weft result and a CompletableFuture say the same thing. */
  private def agree(r: Option[scala.util.Try[Int]], cf: CompletableFuture[Int]): Boolean =
    r match
      case Some(Failure(_: CancellationException)) => cf.isCancelled
      case Some(Success(v))                        => cf.isDone && !cf.isCancelled && cf.join() == v
      case _                                       => false

  test("stress: cancelling the CompletableFuture view while the future completes, both agree"):
    val bad = raceRounds(20_000)(i =>
      val p = Promise[Int]()
      (i, p, p.future.asCompletableFuture)
    )((_, _, cf) => cf.cancel(false))((i, p, _) => p.tryComplete(Success(i)))((_, p, cf) =>
      agree(p.future.poll(), cf)
    )
    assertEquals(bad, 0, "rounds where the CompletableFuture and the weft future disagree")

  test("stress: cancelling the weft view while the CompletableFuture completes, both agree"):
    val bad = raceRounds(20_000)(i =>
      val cf = CompletableFuture[Int]()
      (i, cf, cf.asWeft)
    )((_, _, view) => view.cancel())((i, cf, _) => cf.complete(i))((_, cf, view) =>
      agree(view.poll(), cf)
    )
    assertEquals(bad, 0, "rounds where the weft view and the CompletableFuture disagree")
