package weft

import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import scala.util.{Success, Try}

/**
 * The listener protocol: take-or-decline, locks retired on completion, `lockBoth` in the global
 * order (no deadlock under concurrent pairing of overlapping listeners).
 */
class ListenerSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A locked listener counting its completions. */
  class Locked extends Listener[Int]:
    val l = NumberedLock()
    val lock: ListenerLock | Null = l
    val completions = AtomicInteger()
    def complete(data: Int, source: Source[Int]): Unit =
      completions.incrementAndGet()
      l.retire()

  val dummy: Source[Int] = Promise[Int]().future.asInstanceOf[Source[Try[Int]]].map(_.get)

  test("a locked listener is completed at most once"):
    val k = Locked()
    assert(k.completeNow(1, dummy))
    assert(!k.completeNow(2, dummy))
    assertEquals(k.completions.get, 1)

  test("a listener declining in accepts is not locked nor completed"):
    val k = new Locked:
      override def accepts(data: Int): Boolean = data > 10
    assert(!k.completeNow(1, dummy))
    assert(k.completeNow(11, dummy))
    assertEquals(k.completions.get, 1)

  test("lock numbers are unique and increasing"):
    val a, b = NumberedLock()
    assert(a.number < b.number)

  test("release leaves the listener completable; retire does not"):
    val k = Locked()
    assert(k.acquireLock())
    k.releaseLock()
    assert(k.acquireLock())
    k.complete(1, dummy)
    assert(!k.acquireLock())

  test("lockBoth reports which listener is gone and holds nothing then"):
    val a, b = Locked()
    b.completeNow(1, dummy)
    assertEquals(Listener.lockBoth(a, b), Listener.LockBoth.SecondGone)
    assert(a.acquireLock(), "a must have been released")
    a.releaseLock()
    assertEquals(Listener.lockBoth(b, a), Listener.LockBoth.FirstGone)
    assertEquals(Listener.lockBoth(a, Listener[Int]((_, _) => ())), Listener.LockBoth.Locked)

  test("stress: concurrent lockBoth over overlapping pairs never deadlocks; each completes once"):
    val listeners = IndexedSeq.fill(32)(Locked())
    val pairsDone = AtomicLong()
    val threads = 8
    val start = CountDownLatch(1)
    val ts = (0 until threads).map: t =>
      Thread.ofPlatform().start: () =>
        val rnd = java.util.Random(t)
        start.await()
        for _ <- 1 to 20_000 do
          val i = rnd.nextInt(listeners.size)
          var j = rnd.nextInt(listeners.size)
          if j == i then j = (j + 1) % listeners.size
          val (a, b) = (listeners(i), listeners(j))
          Listener.lockBoth(a, b) match
            case Listener.LockBoth.Locked =>
              // complete only now and then, so most pairs just lock and release
              if rnd.nextInt(1000) == 0 then
                a.complete(1, dummy)
                b.complete(1, dummy)
                pairsDone.incrementAndGet()
              else
                a.releaseLock()
                b.releaseLock()
            case _ => ()
    start.countDown()
    ts.foreach(_.join())
    listeners.foreach(k => assert(k.completions.get <= 1))
    assertEquals(listeners.map(_.completions.get).sum.toLong, pairsDone.get * 2)
