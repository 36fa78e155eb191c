package weft

import scala.util.{Success, Try}
import weft.internal.futures.CoreFuture

/** `poll`, `onComplete`, `dropListener`, `map` and `filter` on sources, and a custom source. */
class SourceSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("poll() is None while pending, Some once done"):
    val p = Promise[Int]()
    assertEquals(p.future.poll(), None)
    p.success(1)
    assertEquals(p.future.poll(), Some(Success(1)))

  test("onComplete on a done source completes the listener at once without registering"):
    var got: Option[Try[Int]] = None
    val f = Future.now(Success(3))
    f.onComplete(Listener((v, _) => got = Some(v)))
    assertEquals(got, Some(Success(3)))
    assertEquals(f.asInstanceOf[CoreFuture[Int]].listenerCount, 0)

  test("dropListener removes a registered listener"):
    val p = Promise[Int]()
    var called = false
    val k = Listener[Try[Int]]((_, _) => called = true)
    p.future.onComplete(k)
    p.future.dropListener(k)
    p.success(1)
    assert(!called)

  test("map transforms values and does not consume the source"):
    Async.blocking:
      val f = Future(20)
      assertEquals(Async.await(f.map(_.map(_ + 1))), Success(21))
      assertEquals(f.value, 20)

  test("dropping through map removes the underlying listener"):
    val p = Promise[Int]()
    val mapped = p.future.map(_.map(_ * 2))
    val k = Listener[Try[Int]]((_, _) => ())
    mapped.onComplete(k)
    assertEquals(p.future.asInstanceOf[CoreFuture[Int]].listenerCount, 1)
    mapped.dropListener(k)
    assertEquals(p.future.asInstanceOf[CoreFuture[Int]].listenerCount, 0)

  test("filter declines rejected values; race falls through to another source"):
    Async.blocking:
      val odd = Future.now(Success(2)).filter(_.get % 2 == 1)
      val other = Future { Thread.sleep(10); 7 }
      assertEquals(Async.await(Async.race(odd, other)), Success(7))

  test("filter accepts matching values"):
    Async.blocking:
      assertEquals(Async.await(Future.now(Success(3)).filter(_.get % 2 == 1)), Success(3))

  test("a custom OriginalSource can be awaited"):
    final class Once extends OriginalSource[String]:
      @volatile var waiting: List[Listener[String]] = Nil
      def fire(v: String): Unit = waiting.foreach(_.completeNow(v, this))
      def poll(k: Listener[String]): Boolean = false
      protected def addListener(k: Listener[String]): Unit = waiting = k :: waiting
      def dropListener(k: Listener[String]): Unit = waiting = waiting.filterNot(_ == k)
    val src = Once()
    Async.blocking:
      val f = Future(Async.await(src))
      while src.waiting.isEmpty do Thread.sleep(1)
      src.fire("hello")
      assertEquals(f.value, "hello")
