package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import weft.testing.UntilCancelled
import scala.jdk.CollectionConverters.*
import scala.util.{Failure, Success}
import weft.internal.scopes.SupervisorGroup

/**
 * `supervised`: the failure of any future of the scope fails the scope (the others cancelled
 * and joined, the first failure thrown, later ones suppressed); `forkUnsupervised` keeps its
 * failure; nothing started in the scope outlives it, whichever way it ends.
 */
class SupervisedSuite extends munit.FunSuite, weft.testing.StressChecks:

  override val munitTimeout = 30.seconds

  /** Records the threads of the bodies that call [[record]]. */
  final class Threads:
    val seen = ConcurrentLinkedQueue[Thread]()
    def record(): Unit = seen.add(Thread.currentThread())
    def alive: List[Thread] = seen.asScala.toList.filter(_.isAlive)

  boundedTest(
    "a failing future fails the scope: the others cancelled and joined, its failure thrown"
  ):
    val threads = Threads()
    val started = CountDownLatch(3)
    val cancelled = AtomicInteger()
    val boom = IllegalStateException("boom")
    val thrown = intercept[IllegalStateException]:
      Async.blocking:
        supervised:
          for _ <- 1 to 3 do
            Future:
              threads.record()
              started.countDown()
              UntilCancelled(cancelled.incrementAndGet())
          Future:
            started.await()
            throw boom
          threads.record()
          UntilCancelled() // the body too is cancelled by the failure
    assert(thrown eq boom, s"the first failure itself is thrown, got $thrown")
    assertEquals(cancelled.get, 3)
    assertEquals(threads.seen.size, 4)
    assertEquals(threads.alive, Nil)

  boundedTest(
    "the failure of a future nobody awaits fails the scope; the scope's value is not returned"
  ):
    val reached = AtomicInteger()
    val e = intercept[ArithmeticException]:
      Async.blocking:
        supervised:
          Future[Int](1 / 0)
          sleep(60_000) // interrupted by the failure
          reached.incrementAndGet()
    assert(e.getMessage.contains("zero"), e.toString)
    assertEquals(reached.get, 0)

  boundedTest("failures after the first are attached to it as suppressed, each once, never itself"):
    // Deterministic: a failure after the scope's cancellation is normally replaced by the
    // cancellation (a cancelled future completes at once), so later failures arise only in a race;
    // the rule itself is checked on the group.
    val g = SupervisorGroup()
    val a = IllegalStateException("a")
    val b = IllegalArgumentException("b")
    val c = ArithmeticException("c")
    Seq(a, b, a, c, b).foreach(g.fail)
    assert(g.isCancelled, "a failure cancels the scope")
    val thrown = g.failureToThrow
    assert(thrown eq a)
    assertEquals(a.getSuppressed.toList, List[Throwable](b, c))

  boundedTest("two futures failing at once: one is thrown, the other suppressed by it"):
    val both = CountDownLatch(2)
    val e = intercept[IllegalStateException]:
      Async.blocking:
        supervised:
          for i <- 1 to 2 do
            Future:
              both.countDown()
              both.await()
              throw IllegalStateException(s"fail $i")
          UntilCancelled()
    val all = (e +: e.getSuppressed.toSeq).map(_.getMessage).toSet
    assert(all.subsetOf(Set("fail 1", "fail 2")), all.toString)
    assert(!e.getSuppressed.exists(_ eq e))

  boundedTest(
    "a body that throws cancels and joins the scope's futures and fails with its exception"
  ):
    val threads = Threads()
    val started = CountDownLatch(2)
    intercept[java.util.NoSuchElementException]:
      Async.blocking:
        supervised:
          for _ <- 1 to 2 do
            Future:
              threads.record()
              started.countDown()
              UntilCancelled()
          started.await()
          throw java.util.NoSuchElementException("body")
    assertEquals(threads.alive, Nil)
    assertEquals(threads.seen.size, 2)

  boundedTest("a body that returns: its value; the futures still running are cancelled and joined"):
    val threads = Threads()
    val started = CountDownLatch(1)
    val v = Async.blocking:
      supervised:
        val quick = Future(21)
        Future:
          threads.record()
          started.countDown()
          UntilCancelled()
        started.await()
        quick.await * 2
    assertEquals(v, 42)
    assertEquals(threads.alive, Nil)

  boundedTest("a future cancelled on purpose does not fail the scope"):
    val v = Async.blocking:
      supervised:
        val f = Future(UntilCancelled())
        f.cancel()
        assert(f.result.isFailure)
        "still here"
    assertEquals(v, "still here")

  boundedTest("forkUnsupervised: its failure stays in its future and the scope carries on"):
    val v = Async.blocking:
      supervised:
        val f = forkUnsupervised[Int](throw IllegalStateException("probe"))
        val other = Future(5)
        f.result match
          case Failure(e: IllegalStateException) => other.await + e.getMessage.length
          case r                                 => fail(s"unexpected $r")
    assertEquals(v, 10)

  boundedTest("forkUnsupervised futures are cancelled and joined with the scope"):
    // The fork's clean-up is slow, so a scope that returned without joining it would be seen:
    // joined means the clean-up has finished (not a timing assertion).
    val threads = Threads()
    val started = CountDownLatch(1)
    val cleanedUp = AtomicInteger()
    Async.blocking:
      supervised:
        forkUnsupervised:
          threads.record()
          started.countDown()
          UntilCancelled:
            // A cancel that came before the await left the interrupt status set (the await
            // threw without parking): clear it, so the slow clean-up runs either way.
            Thread.interrupted(): Unit
            Thread.sleep(100)
            cleanedUp.incrementAndGet()
        started.await()
    assertEquals(cleanedUp.get, 1)
    assertEquals(threads.seen.size, 1)
    assertEquals(threads.alive, Nil)

  boundedTest("forkUnsupervised is cancelled with the scope when a supervised future fails"):
    val cancelled = CountDownLatch(1)
    val started = CountDownLatch(1)
    intercept[IllegalStateException]:
      Async.blocking:
        supervised:
          forkUnsupervised:
            started.countDown()
            UntilCancelled(cancelled.countDown())
          started.await()
          Future(throw IllegalStateException("x"))
          UntilCancelled()
    assertEquals(cancelled.getCount, 0L)

  boundedTest("outside a supervised scope forkUnsupervised is a plain future"):
    val r = Async.blocking:
      forkUnsupervised[Int](throw IllegalStateException("plain")).result
    assert(r.isFailure)

  boundedTest("the enclosing scope's cancellation cancels the supervised scope and joins it"):
    val threads = Threads()
    val started = CountDownLatch(3)
    val outcome = Async.blocking:
      val outer = Future:
        supervised:
          for _ <- 1 to 2 do
            Future:
              threads.record()
              started.countDown()
              UntilCancelled()
          threads.record()
          started.countDown()
          UntilCancelled()
      started.await()
      outer.cancel()
      outer.result
    assert(outcome.failed.toOption.exists(_.isInstanceOf[CancellationException]), outcome.toString)
    assertEquals(threads.seen.size, 3)
    assertEquals(threads.alive, Nil)

  boundedTest(
    "a future started inside a supervised future keeps its failure (its own plain scope)"
  ):
    val v = Async.blocking:
      supervised:
        Future:
          Future[Int](throw IllegalStateException("nested")).result.isFailure
        .await
    assert(v)

  boundedTest("uninterruptible in the body defers the cancellation caused by a failure"):
    val finished = AtomicInteger()
    intercept[IllegalStateException]:
      Async.blocking:
        supervised:
          val gate = CountDownLatch(1)
          Future:
            gate.await()
            throw IllegalStateException("x")
          uninterruptible:
            gate.countDown()
            Thread.sleep(50) // the failure arrives meanwhile; no interrupt lands here
            finished.incrementAndGet()
          UntilCancelled()
    assertEquals(finished.get, 1)

  boundedTest(
    "supervised scopes nest: an inner failure fails the inner scope, caught by the outer"
  ):
    val v = Async.blocking:
      supervised:
        val inner =
          try
            supervised:
              Future(throw IllegalStateException("inner"))
              UntilCancelled()
          catch case e: IllegalStateException => e.getMessage
        val sibling = Future("sibling")
        inner + " " + sibling.await
    assertEquals(v, "inner sibling")

  test("stress: random failures and cancellations, every scope ends once, no thread left"):
    withinDeadline(25, "supervised-stress"):
      val threads = Threads()
      val outcomes = ConcurrentLinkedQueue[String]()
      val rounds = 300
      Async.blocking:
        val runs = (0 until rounds).map: i =>
          val rnd = scala.util.Random(i)
          val failAt = rnd.nextInt(6) // 0..3: that fork fails; otherwise none fails
          val f = Future:
            supervised:
              for k <- 0 until 4 do
                Future:
                  threads.record()
                  if k == failAt then throw IllegalStateException(s"fail $k")
                  sleep(rnd.nextInt(3).toLong)
              threads.record()
              sleep(rnd.nextInt(3).toLong)
              "done"
          if rnd.nextBoolean() then
            Future:
              var spin = rnd.nextInt(20_000)
              while spin > 0 do spin -= 1
              f.cancel()
          f
        runs.foreach: f =>
          f.result match
            case Success(_)                        => outcomes.add("done")
            case Failure(_: CancellationException) => outcomes.add("cancelled")
            case Failure(_: IllegalStateException) => outcomes.add("failed")
            case Failure(e)                        => throw e
      assertEquals(outcomes.size, rounds)
      assert(outcomes.asScala.toSet.contains("failed"), outcomes.asScala.groupBy(identity).keys)
      assertEquals(threads.alive.take(3), Nil)
