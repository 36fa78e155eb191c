package weft

import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import weft.*
import weft.testing.TimeTesting.*

/** Timer and StartableTimer: ringing, starting, cancelling, racing, and no thread per timer. */
class TimerSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("Async.await(Timer(100)) returns true after at least 100 ms"):
    val (rang, ms) = timed(Async.blocking(Async.await(Timer(100))))
    assertEquals(rang, true)
    assert(ms >= 100, s"rang after $ms ms")

  test("the FiniteDuration overloads count the same way"):
    val (rang, ms) = timed(Async.blocking(Async.await(Timer(60.millis))))
    assert(rang)
    assert(ms >= 60, s"rang after $ms ms")
    assertEquals(StartableTimer(2.seconds).millis, 2000L)

  test("a StartableTimer does not count until started, then rings"):
    Async.blocking:
      val st = StartableTimer(0)
      assertEquals(Async.await(Async.either(st, Timer(50))), Right(true))
      assertEquals(st.poll(), None)
      st.start()
      assertEquals(Async.await(st), true)
      assertEquals(st.poll(), Some(true))

  test("starting twice is an IllegalStateException"):
    val st = StartableTimer(10_000)
    st.start()
    intercept[IllegalStateException](st.start())
    st.cancel()

  test("a cancelled timer offers false to waiting and later listeners, and frees its entry"):
    val before = pendingTimers
    val t = Timer(60_000)
    Async.blocking:
      val waiter = Future(Async.await(t))
      awaitCondition("the waiter registered")(t.listenerCount == 1)
      t.cancel()
      assertEquals(waiter.value, false)
      assertEquals(Async.await(t), false)
    assert(pendingTimers <= before, s"pending $pendingTimers > $before")

  test("cancel after ringing changes nothing; start after cancel does nothing"):
    Async.blocking:
      val t = Timer(0)
      assert(Async.await(t))
      t.cancel()
      assertEquals(t.poll(), Some(true))
    val st = StartableTimer(0)
    st.cancel()
    st.start()
    assertEquals(st.poll(), Some(false))

  test("every listener of a timer gets the ring"):
    val got = AtomicInteger()
    Async.blocking:
      val t = Timer(30)
      val fs = (1 to 20).map(_ => Future(if Async.await(t) then got.incrementAndGet()))
      fs.awaitAll
    assertEquals(got.get, 20)

  test("the earlier of two timers wins a race, and the loser keeps no listener"):
    Async.blocking:
      val short = Timer(10)
      val long = Timer(300)
      assertEquals(Async.await(Async.either(short, long)), Left(true))
      // the race drops its losing listener right after waking the winner: wait for it
      awaitCondition("the losing listener is dropped")(long.listenerCount == 0)
      long.cancel()

  test("a timer is a select case"):
    val never = Promise[Int]()
    val r = Async.blocking:
      Async.select(
        never.future ~~> (_ => "future"),
        Timer(20) ~~> (rang => s"timer $rang")
      )
    assertEquals(r, "timer true")

  test("negative delays are an IllegalArgumentException at construction"):
    intercept[IllegalArgumentException](Timer(-1))
    intercept[IllegalArgumentException](StartableTimer(-1))
    intercept[IllegalArgumentException](Timer(-5.millis))

  test("100,000 pending timers use no extra thread, and cancelling frees them all"):
    val threadsBefore = platformThreads
    val pendingBefore = pendingTimers
    val timers = Array.fill(100_000)(Timer(10.minutes))
    assert(pendingTimers >= pendingBefore + 100_000, s"pending: $pendingTimers")
    val threadsAfter = platformThreads
    assert(threadsAfter - threadsBefore <= 2, s"threads went from $threadsBefore to $threadsAfter")
    timers.foreach(_.cancel())
    assert(pendingTimers <= pendingBefore, s"pending after cancel: $pendingTimers")
    assert(timers.forall(_.poll().contains(false)))
