package weft.testkit

import java.util.concurrent.TimeoutException
import scala.concurrent.duration.*
import weft.*
import weft.channels.*
import weft.testing.Deadlined

class VirtualTimeSmokeSuite extends Deadlined:

  test("an hour of sleep in virtual time"):
    VirtualTime.run:
      sleep(1.hour)
      assertEquals(currentTime, 1.hour)

  test("withTimeout fails at exactly 10 s"):
    VirtualTime.run:
      intercept[TimeoutException](withTimeout(10.seconds)(sleep(20.seconds)))
      assertEquals(currentTime, 10.seconds)

  test("a ticker for a day"):
    VirtualTime.run:
      val t = Ticker(1.second)
      var n = 0
      while n < 86400 do
        Async.await(t)
        n += 1
      assertEquals(currentTime, 1.day)
      t.cancel()

  test("two readers deadlock"):
    val e = intercept[DeadlockException]:
      VirtualTime.run:
        val a = SyncChannel[Int]()
        val b = SyncChannel[Int]()
        val f1 = Future(a.read())
        val f2 = Future(b.read())
        f1.await
        f2.await
    println(e.getMessage)
    assertEquals(e.fibers.size, 3)

  test("semaphore twice"):
    val e = intercept[DeadlockException]:
      VirtualTime.run:
        val s = Semaphore(1)
        s.acquire()
        s.acquire()
    println(e.getMessage)

  test("Thread.sleep blocks"):
    val e = intercept[BlockedFiberException]:
      VirtualTime(VirtualTimeConfig(blockedLimit = 300.millis)).run:
        Future(Thread.sleep(100000)).await
    println(e.getMessage)
