package weft

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.{AtomicInteger, AtomicReference}
import scala.jdk.CollectionConverters.*
import scala.util.{Failure, Success}

/** `Future.Collector` and `MutableCollector`: completion order, exactly once, adding. */
class CollectorSuite extends munit.FunSuite, weft.testing.StressChecks:

  def holdsIn(seconds: Int)(body: => Unit): Unit = withinDeadline(seconds, "weft-collector-")(body)

  test("results offers the futures in the order they complete"):
    holdsIn(20):
      Async.blocking:
        val (p1, p2, p3) = (Promise[Int](), Promise[Int](), Promise[Int]())
        val c = Future.Collector(p1.future, p2.future, p3.future)
        p2.success(2)
        p3.failure(IllegalStateException("3"))
        p1.success(1)
        val got = c.results.values.take(3).map(_.result).toList
        assertEquals(got.take(1), List(Success(2)))
        assert(got(1).isFailure, got)
        assertEquals(got(2), Success(1))

  test("a reader waits for the next completion"):
    holdsIn(20):
      Async.blocking:
        val p = Promise[String]()
        val c = Future.Collector(p.future)
        val reader = Future(Async.await(c.results).await)
        testing.TimeTesting.awaitCondition("the reader waits")(
          c.results.asInstanceOf[Collector.Results[String]].waitingCount == 1
        )
        p.success("x")
        assertEquals(reader.await, "x")

  test("a mutable collector takes futures while collecting"):
    holdsIn(20):
      Async.blocking:
        val c = Future.MutableCollector[Int]()
        c += Future(1)
        assertEquals(Async.await(c.results).await, 1)
        c.add(Future { sleep(5); 2 })
        c += Future.successful(3)
        val rest = c.results.values.take(2).map(_.await).toList
        assertEquals(rest.sorted, List(2, 3))

  test("each completed future goes to exactly one of many racing readers"):
    holdsIn(60):
      val n = 2000
      val got = ConcurrentLinkedQueue[Int]()
      Async.blocking:
        val c = Future.MutableCollector[Int]()
        val readers = (1 to 4).map: r =>
          Future:
            var mine = 0
            while got.size < n do
              // half of the reads race the results against a short timer (losers keep theirs)
              if r % 2 == 0 then
                val t = Timer(1)
                try
                  Async.await(Async.either(c.results, t)) match
                    case Left(f)  => got.add(f.await); mine += 1
                    case Right(_) => ()
                finally t.cancel()
              else
                val t = Timer(1)
                try
                  Async.select(
                    c.results ~~> (f =>
                      got.add(f.await); mine += 1
                    ),
                    t ~~> (_ => ())
                  )
                finally t.cancel()
            mine
        for i <- 1 to n do c += Future(i)
        readers.awaitAll: Unit
      val all = got.asScala.toList
      assertEquals(all.size, n, "a future was delivered twice or lost")
      assertEquals(all.sorted, (1 to n).toList)

  /** A listener whose lock was already completed elsewhere (a select another case won). */
  def lostSelect[T](got: AtomicReference[Any]): Listener[T] = new Listener[T]:
    val lock: ListenerLock | Null = new NumberedLock:
      assert(acquire())
      retire()
    def complete(data: T, source: Source[T]): Unit = got.set(data)

  test("a ready future declined by a filtered read or a lost select stays for the next reader"):
    holdsIn(20):
      val p = Promise[Int]()
      val c = Future.Collector(p.future)
      p.success(1) // ready in the collector before anyone reads
      val got = AtomicReference[Any]("nothing")
      assertEquals(c.results.filter(_ => false).poll(), None, "the filter declines it")
      c.results.poll(lostSelect(got)): Unit // a lost select declines it
      assertEquals(got.get, "nothing")
      assertEquals(c.results.poll().map(_.poll()), Some(Some(Success(1))), "still there")
      assertEquals(c.results.poll(), None, "and taken once")

  test("a future offered to a waiting reader that declines it stays for the next reader"):
    holdsIn(20):
      val (p1, p2) = (Promise[Int](), Promise[Int]())
      val c = Future.Collector(p1.future, p2.future)
      val got = AtomicReference[Any]("nothing")
      val declined = AtomicInteger()
      // two readers wait: one whose select was won elsewhere, one whose filter says no
      c.results.onComplete(lostSelect(got))
      c.results.filter { _ =>
        declined.incrementAndGet(); false
      }
        .onComplete(Listener((v, _) => got.set(v)))
      p1.success(1) // offered to both waiting readers, declined by both
      p2.success(2)
      assertEquals(declined.get, 1)
      assertEquals(got.get, "nothing")
      val left = List(c.results.poll(), c.results.poll()).map(_.map(_.poll()))
      assertEquals(left, List(Some(Some(Success(1))), Some(Some(Success(2)))))
