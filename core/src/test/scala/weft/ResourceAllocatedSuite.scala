package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import java.util.concurrent.atomic.AtomicInteger
import scala.jdk.CollectionConverters.*
import weft.*
import weft.internal.async.Cancellation

/** `Resource.allocated` and `Resource.spawning`: ownership handed out, scopes as resources. */
class ResourceAllocatedSuite extends munit.FunSuite, weft.testing.StressChecks,
      weft.testing.Deadlined:

  private val log = ConcurrentLinkedQueue[String]()
  override def beforeEach(context: BeforeEach): Unit = log.clear()
  private def events: List[String] = log.asScala.toList

  private def res(name: String, failAcquire: Boolean = false): Resource[String] =
    Resource(
      {
        if failAcquire then throw IllegalStateException(s"acquire $name failed")
        log.add(s"acquire $name"); name
      },
      n => log.add(s"release $n"): Unit
    )

  test("allocated acquires now and releases once, when asked"):
    Async.blocking:
      val a = res("a").allocated
      assertEquals(a.value, "a")
      assertEquals(events, List("acquire a"))
      assert(!a.isReleased)
      a.release()
      a.release()
      assert(a.isReleased)
      assertEquals(events, List("acquire a", "release a"))

  test("allocated of a composite releases in reverse order; map applies to the value"):
    Async.blocking:
      val a = Resource.both(res("a"), res("b")).map((x, y) => x + y).allocated
      assertEquals(a.value, "ab")
      a.release()
      assertEquals(events, List("acquire a", "acquire b", "release b", "release a"))
      assertEquals(Resource.pure(3).allocated.value, 3)

  test("a failing part of allocated releases what was acquired before it"):
    Async.blocking:
      val e = intercept[IllegalStateException]:
        res("a").flatMap(_ => res("b", failAcquire = true)).allocated
      assertEquals(e.getMessage, "acquire b failed")
      assertEquals(events, List("acquire a", "release a"))
      val m = intercept[IllegalArgumentException]:
        res("c").map(_ => throw IllegalArgumentException("map")).allocated
      assertEquals(m.getMessage, "map")
      assertEquals(events.drop(2), List("acquire c", "release c"))

  test("a failing release is thrown, and the other parts are still released"):
    Async.blocking:
      val bad = Resource[String]("x", _ => throw IllegalStateException("release x"))
      val a = res("a").flatMap(_ => bad).allocated
      val e = intercept[IllegalStateException](a.release())
      assertEquals(e.getMessage, "release x")
      assertEquals(events, List("acquire a", "release a"))

  test("allocated in a cancelled scope acquires nothing"):
    Async.blocking:
      val inside = CountDownLatch(1)
      val f = Future:
        inside.countDown()
        while !Cancellation.pending do Thread.onSpinWait()
        res("a").allocated
      inside.await()
      f.cancel()
      assert(f.result.failed.get.isInstanceOf[CancellationException])
      assertEquals(events, Nil)

  test("spawning: futures of the scope are cancelled and joined at release"):
    withinDeadline(20, "weft-spawning-"):
      val ended = AtomicInteger()
      val started = CountDownLatch(2)
      Async.blocking:
        val r = Resource.spawning.use: scope =>
          for _ <- 1 to 2 do
            Future {
              started.countDown()
              try sleep(60_000)
              finally ended.incrementAndGet(): Unit
            }(using scope)
          started.await()
          "done"
        assertEquals(r, "done")
        assertEquals(ended.get, 2)

  test("spawning with allocated: the scope lives until released"):
    withinDeadline(20, "weft-spawning-"):
      val ticks = AtomicInteger()
      Async.blocking:
        val scope = Resource.spawning.allocated
        val f = Future(while true do
          ticks.incrementAndGet(); sleep(1)
        )(using scope.value)
        testing.TimeTesting.awaitCondition("the future runs")(ticks.get >= 3)
        assert(!f.poll().isDefined, "the future ended before its scope was released")
        scope.release()
        assert(f.result.failed.get.isInstanceOf[CancellationException])

  /**
   * gears' "leak future", the weft way: a spawning scope allocated inside `Async.group` and not
   * released when the group ends is cancelled and joined by it (it never outlives the scope that
   * acquired it), and releasing it later returns at once. On a platform and a virtual caller.
   */
  private def allocatedSpawningEndsWithItsScope(): Unit =
    val ended = AtomicInteger()
    val started = CountDownLatch(1)
    Async.blocking:
      val held = Async.group:
        val scope = Resource.spawning.allocated
        Future {
          started.countDown()
          try sleep(60_000)
          finally ended.incrementAndGet(): Unit
        }(using scope.value)
        started.await()
        scope
      assertEquals(ended.get, 1, "the allocated scope's future outlived the group")
      assert(!held.isReleased)
      held.release()
      assert(held.isReleased)

  test("an allocated spawning scope ends with the scope that acquired it"):
    withinDeadline(20, "weft-spawning-")(allocatedSpawningEndsWithItsScope())

  test("an allocated spawning scope ends with the scope that acquired it (virtual caller)"):
    withinDeadline(20, "weft-spawning-vt-"):
      @volatile var failure: Throwable | Null = null
      Thread
        .ofVirtual()
        .start(() =>
          try allocatedSpawningEndsWithItsScope()
          catch case e: Throwable => failure = e
        )
        .join()
      if failure != null then throw failure.nn

  test("a spawning scope is cancelled with the scope that acquired it"):
    withinDeadline(20, "weft-spawning-"):
      val started = CountDownLatch(1)
      Async.blocking:
        val outer = Future:
          Resource.spawning.use: scope =>
            val child = Future(sleep(60_000))(using scope)
            started.countDown()
            child.await
        started.await()
        outer.cancel()
        assert(outer.result.failed.get.isInstanceOf[CancellationException])
