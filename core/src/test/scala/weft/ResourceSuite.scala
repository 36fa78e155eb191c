package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue}
import java.util.concurrent.atomic.AtomicBoolean
import scala.jdk.CollectionConverters.*
import weft.*
import weft.testing.TimeTesting.*

/** Resource: exactly-once release in reverse order, on success, failure and cancellation. */
class ResourceSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A log of events, shared by fibers. */
  private class Log:
    private val q = ConcurrentLinkedQueue[String]()
    def add(s: String): Unit = q.add(s)
    def events: List[String] = q.asScala.toList

  private def res(log: Log, name: String, failRelease: Boolean = false): Resource[String] =
    Resource(
      { log.add(s"acquire $name"); name },
      n =>
        log.add(s"release $n")
        if failRelease then throw IllegalStateException(s"release $n failed")
    )

  test("use acquires, runs the body, releases once, and returns the body's value"):
    val log = Log()
    val r = Async.blocking(res(log, "a").use(v =>
      log.add(s"use $v"); v.length
    ))
    assertEquals(r, 1)
    assertEquals(log.events, List("acquire a", "use a", "release a"))

  test("the body's exception is rethrown after the release"):
    val log = Log()
    val e = intercept[IllegalArgumentException]:
      Async.blocking(res(log, "a").use(_ => throw IllegalArgumentException("body")))
    assertEquals(e.getMessage, "body")
    assertEquals(log.events, List("acquire a", "release a"))

  test("a failing release after a failing body is attached as suppressed"):
    val log = Log()
    val e = intercept[IllegalArgumentException]:
      Async.blocking(res(log, "a", failRelease = true).use(_ =>
        throw IllegalArgumentException("body")
      ))
    assertEquals(e.getMessage, "body")
    assertEquals(e.getSuppressed.toList.map(_.getMessage), List("release a failed"))

  test("a failing release after a successful body is thrown"):
    val log = Log()
    val e = intercept[IllegalStateException]:
      Async.blocking(res(log, "a", failRelease = true).use(_ => 1))
    assertEquals(e.getMessage, "release a failed")

  test("flatMap, both and all release in reverse order of acquisition"):
    val log = Log()
    val r =
      for
        a <- res(log, "a")
        bc <- Resource.both(res(log, "b"), res(log, "c"))
        rest <- Resource.all(Seq(res(log, "d"), res(log, "e")))
      yield (a, bc, rest)
    val v = Async.blocking(r.use(identity))
    assertEquals(v, ("a", ("b", "c"), Seq("d", "e")))
    assertEquals(
      log.events,
      List("a", "b", "c", "d", "e").map("acquire " + _) ++
        List("e", "d", "c", "b", "a").map("release " + _)
    )

  test("every release runs even when inner ones fail; the body's error keeps them all"):
    val log = Log()
    val r = Resource.all(Seq(
      res(log, "a"),
      res(log, "b", failRelease = true),
      res(log, "c", failRelease = true)
    ))
    val e = intercept[IllegalArgumentException]:
      Async.blocking(r.use(_ => throw IllegalArgumentException("body")))
    assertEquals(
      log.events.filter(_.startsWith("release")),
      List("release c", "release b", "release a")
    )
    assertEquals(
      e.getSuppressed.toList.map(_.getMessage),
      List("release c failed", "release b failed")
    )

  test("a failed acquisition releases what was acquired before it and rethrows"):
    val log = Log()
    val bad = Resource[String](
      { log.add("acquire bad"); throw IllegalStateException("no") },
      _ => log.add("release bad")
    )
    val e =
      intercept[IllegalStateException](Async.blocking(Resource.both(res(log, "a"), bad).use(_ =>
        log.add("body")
      )))
    assertEquals(e.getMessage, "no")
    assertEquals(log.events, List("acquire a", "acquire bad", "release a"))

  test("map transforms the value and keeps the release"):
    val log = Log()
    assertEquals(Async.blocking(res(log, "abc").map(_.length).use(_ * 2)), 6)
    assertEquals(log.events, List("acquire abc", "release abc"))

  test("cancelling while the body runs interrupts it and releases exactly once"):
    val log = Log()
    Async.blocking:
      val inBody = Promise[Unit]()
      val f = Future:
        res(log, "a").use: _ =>
          inBody.success(())
          sleep(60_000)
      inBody.future.await
      f.cancel()
      assert(f.result.failed.get.isInstanceOf[CancellationException])
    assertEquals(log.events, List("acquire a", "release a"))

  test("cancelling during acquisition releases the value and skips the body"):
    val log = Log()
    val bodyRan = AtomicBoolean()
    Async.blocking:
      val acquiring = Promise[Unit]()
      val r = Resource(
        {
          acquiring.success(())
          Thread.sleep(50)
          log.add("acquired")
          "x"
        },
        (_: String) => log.add("released")
      )
      Async.group:
        val f = Future(r.use(_ => bodyRan.set(true)))
        acquiring.future.await
        f.cancel()
    assertEquals(log.events, List("acquired", "released"))
    assert(!bodyRan.get)

  test("release runs while the scope is being cancelled, and may await"):
    val log = Log()
    Async.blocking:
      val inBody = Promise[Unit]()
      val r = Resource[String](
        "x",
        _ =>
          sleep(20); log.add("slow release done")
      )
      val f = Future(r.use(_ =>
        inBody.success(()); sleep(60_000)
      ))
      inBody.future.await
      f.cancel()
      awaitCondition("release finished")(log.events.nonEmpty)
    assertEquals(log.events, List("slow release done"))

  test("fromAutoCloseable closes"):
    val closed = AtomicBoolean()
    Async.blocking(Resource.fromAutoCloseable(new AutoCloseable:
      def close() = closed.set(true)
    ).use(_ => ()))
    assert(closed.get)
