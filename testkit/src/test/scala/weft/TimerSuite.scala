package weft

import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import weft.*
import weft.testing.VirtualTesting.scopeTimers
import weft.testkit.*

/**
 * Timer and StartableTimer: ringing (at exactly their delay, on virtual time), starting,
 * cancelling, racing. That timers hold no thread each is in `TimerThreadsSuite`.
 */
class TimerSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("Async.await(Timer(100)) returns true after exactly 100 ms"):
    VirtualTime.run:
      assertEquals(Async.await(Timer(100)), true)
      assertEquals(currentTime, 100.millis)

  test("the FiniteDuration overloads count the same way"):
    VirtualTime.run:
      assert(Async.await(Timer(60.millis)))
      assertEquals(currentTime, 60.millis)
    assertEquals(StartableTimer(2.seconds).millis, 2000L)

  test("a StartableTimer does not count until started, then rings"):
    VirtualTime.run:
      val st = StartableTimer(20)
      assertEquals(Async.await(Async.either(st, Timer(50))), Right(true))
      assertEquals(st.poll(), None)
      assertEquals(currentTime, 50.millis)
      st.start()
      assertEquals(Async.await(st), true)
      assertEquals(currentTime, 70.millis, "20 ms after the start, not after the creation")
      assertEquals(st.poll(), Some(true))

  test("starting twice is an IllegalStateException"):
    val st = StartableTimer(10_000)
    st.start()
    intercept[IllegalStateException](st.start())
    st.cancel()

  test("a cancelled timer offers false to waiting and later listeners, and frees its entry"):
    VirtualTime.run:
      val t = Timer(60_000)
      val waiter = Future(Async.await(t))
      runUntilIdle()
      assertEquals(t.listenerCount, 1, "the waiter registered")
      t.cancel()
      assertEquals(waiter.value, false)
      assertEquals(Async.await(t), false)
      assertEquals(scopeTimers, 0)
      assertEquals(currentTime, Duration.Zero)

  test("cancel after ringing changes nothing; start after cancel does nothing"):
    VirtualTime.run:
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
    VirtualTime.run:
      val t = Timer(30)
      val fs = (1 to 20).map(_ => Future(if Async.await(t) then got.incrementAndGet()))
      fs.awaitAll
      assertEquals(currentTime, 30.millis)
    assertEquals(got.get, 20)

  test("the earlier of two timers wins a race, and the loser keeps no listener"):
    VirtualTime.run:
      val short = Timer(10)
      val long = Timer(300)
      assertEquals(Async.await(Async.either(short, long)), Left(true))
      assertEquals(currentTime, 10.millis)
      // the race drops its losing listener right after waking the winner
      runUntilIdle()
      assertEquals(long.listenerCount, 0, "the losing listener is dropped")
      long.cancel()
      assertEquals(scopeTimers, 0)

  test("a timer is a select case"):
    val never = Promise[Int]()
    VirtualTime.run:
      val r = Async.select(
        never.future ~~> (_ => "future"),
        Timer(20) ~~> (rang => s"timer $rang")
      )
      assertEquals(r, "timer true")
      assertEquals(currentTime, 20.millis)

  test("negative delays are an IllegalArgumentException at construction"):
    intercept[IllegalArgumentException](Timer(-1))
    intercept[IllegalArgumentException](StartableTimer(-1))
    intercept[IllegalArgumentException](Timer(-5.millis))
