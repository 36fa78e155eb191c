package weft

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch}
import scala.jdk.CollectionConverters.*
import scala.util.Failure

/**
 * Nothing started inside `Async.blocking` / `Async.group` outlives it: every thread started in
 * the scope has terminated when the scope returns, whatever way the scope ends.
 */
class StructuredConcurrencySuite extends munit.FunSuite, weft.testing.StressChecks,
      weft.testing.Deadlined:

  /** Records the thread of every future body it wraps. */
  final class Threads:
    val seen = ConcurrentLinkedQueue[Thread]()
    def record(): Unit = seen.add(Thread.currentThread())
    def alive: List[Thread] = seen.asScala.toList.filter(_.isAlive)

  test("futures still running when the block ends are cancelled and joined"):
    val threads = Threads()
    val started = CountDownLatch(10)
    Async.blocking:
      for _ <- 1 to 10 do
        Future:
          threads.record()
          started.countDown()
          Thread.sleep(60_000)
      started.await()
    assertEquals(threads.seen.size, 10)
    assertEquals(threads.alive, Nil)

  test("a body that throws still cancels and joins its futures"):
    val threads = Threads()
    val started = CountDownLatch(5)
    intercept[IllegalStateException]:
      Async.blocking:
        for _ <- 1 to 5 do
          Future:
            threads.record()
            started.countDown()
            Thread.sleep(60_000)
        started.await()
        throw IllegalStateException("body failed")
    assertEquals(threads.seen.size, 5)
    assertEquals(threads.alive, Nil)

  test("grandchildren are joined too (nested futures)"):
    val threads = Threads()
    val started = CountDownLatch(9)
    Async.blocking:
      for _ <- 1 to 3 do
        Future:
          threads.record()
          started.countDown()
          for _ <- 1 to 2 do
            Future:
              threads.record()
              started.countDown()
              Thread.sleep(60_000)
          Thread.sleep(60_000)
      started.await()
    assertEquals(threads.seen.size, 9)
    assertEquals(threads.alive, Nil)

  test("a future's children are cancelled when its body returns"):
    val threads = Threads()
    Async.blocking:
      val parent = Future:
        val child = Future:
          threads.record()
          Thread.sleep(60_000)
          "never"
        Thread.sleep(20)
        child
      val child = parent.value
      assert(child.result.isFailure)
      assertEquals(threads.alive, Nil)

  test("Async.group joins its futures before returning, and the outer scope continues"):
    val threads = Threads()
    Async.blocking:
      val inner = Async.group:
        val started = CountDownLatch(4)
        for _ <- 1 to 4 do
          Future:
            threads.record()
            started.countDown()
            Thread.sleep(60_000)
        started.await()
        "inner done"
      assertEquals(inner, "inner done")
      assertEquals(threads.seen.size, 4)
      assertEquals(threads.alive, Nil)
      assertEquals(Future(1).value, 1)

  test("futures cancelled mid-flight are joined at the end of the scope"):
    val threads = Threads()
    Async.blocking:
      val fs = (1 to 20).map: i =>
        Future:
          threads.record()
          try Thread.sleep(60_000)
          finally Thread.sleep(5) // cleanup runs after the interrupt
          i
      Thread.sleep(20)
      fs.foreach(_.cancel())
      fs.foreach(f => assert(f.result.isFailure))
    assertEquals(threads.alive, Nil)

  test("many short futures: all complete, none alive afterwards"):
    val threads = Threads()
    val sum = Async.blocking:
      (1 to 2000).map(i => Future { threads.record(); i }).map(_.value).sum
    assertEquals(sum, (1 to 2000).sum)
    assertEquals(threads.seen.size, 2000)
    assertEquals(threads.alive, Nil)

  test("a long-lived scope does not keep listing the futures that ended"):
    // Entries of members that left are unlinked lazily (CompletionGroup.prune): the list stays
    // proportional to the live members, not to every future the scope ever started.
    Async.blocking:
      val keep = Future(Promise[Int]().future.value) // one live member all along
      var i = 0
      while i < 5000 do
        Future(i).value
        i += 1
      val listed = summon[Async].group.listedEntries
      assert(listed < 500, s"$listed entries listed for ${summon[Async].group.size} live")
      keep.cancel()

  test("a future that ended in another scope's group after a move is joined there"):
    val threads = Threads()
    val other = CompletionGroup()
    Async.blocking:
      val release = CountDownLatch(1)
      val f = Future { threads.record(); release.await(); 1 }
      f.link(other) // leaves the scope's group, its entry now boxed in `other`
      assertEquals(other.size, 1)
      release.countDown()
      assertEquals(f.value, 1)
    other.waitCompletion()
    assertEquals(other.size, 0)
    assertEquals(threads.alive, Nil)

  test("interrupting the platform thread waiting in Async.blocking cancels the body"):
    val threads = Threads()
    val started = CountDownLatch(1)
    @volatile var outcome: Throwable = null
    val caller = Thread.ofPlatform().start: () =>
      try
        Async.blocking:
          Future { threads.record(); Thread.sleep(60_000) }
          threads.record()
          started.countDown()
          Thread.sleep(60_000)
      catch case e: Throwable => outcome = e
    started.await()
    caller.interrupt()
    caller.join()
    assert(outcome.isInstanceOf[InterruptedException], s"got $outcome")
    assertEquals(threads.alive, Nil)

  test("a future failing does not cancel its siblings silently; its failure is kept"):
    Async.blocking:
      val bad = Future[Int](throw IllegalArgumentException("bad"))
      val good = Future { Thread.sleep(20); 2 }
      assert(bad.result.match
        case Failure(_: IllegalArgumentException) => true; case _ => false
      )
      assertEquals(good.value, 2)

  test("a linked promise does not hold its scope: it is cancelled, not waited for"):
    withinDeadline(20, "linked-promise"):
      val p = Promise[Int]()
      val v = Async.blocking:
        p.future.link(summon[Async].group)
        Async.group:
          val t = Timer(60_000)
          t.link(summon[Async].group)
          1
      assertEquals(v, 1)
      assert(p.future.poll().exists(_.isFailure), "the linked promise's future was not cancelled")

  test("a member whose cancel throws does not stop the teardown of its scope"):
    withinDeadline(20, "throwing-member"):
      val reported = java.util.concurrent.ConcurrentLinkedQueue[Throwable]()
      val threads = Threads()
      val started = CountDownLatch(2)
      val previous = Thread.getDefaultUncaughtExceptionHandler
      Thread.setDefaultUncaughtExceptionHandler((_, e) => reported.add(e))
      try
        val bad = new Cancellable:
          def cancel(): Unit = throw IllegalStateException("faulty cancel")
        val v = Async.blocking:
          Future { threads.record(); started.countDown(); Thread.sleep(60_000) }
          bad.link(summon[Async].group)
          Future { threads.record(); started.countDown(); Thread.sleep(60_000) }
          started.await()
          3
        assertEquals(v, 3)
      finally Thread.setDefaultUncaughtExceptionHandler(previous)
      assertEquals(threads.alive, Nil, "a sibling of the faulty member was never cancelled")
      assert(
        reported.asScala.exists(_.getMessage == "faulty cancel"),
        s"the faulty cancel's exception was not reported: ${reported.asScala.toList}"
      )
