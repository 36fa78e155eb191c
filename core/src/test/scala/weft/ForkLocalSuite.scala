package weft

import java.util.concurrent.CountDownLatch
import scala.concurrent.duration.*

/**
 * `ForkLocal`: bound for a block, seen by the futures the block starts, down the tree (the
 * basic case, with grandchildren, is the guide's example in `ContextGuideSuite`).
 */
class ForkLocalSuite extends munit.FunSuite, weft.testing.Deadlined:

  override val munitTimeout = 30.seconds

  test("Async.blocking entered from a platform thread inside a binding sees it"):
    val id = ForkLocal(0)
    val seen = Thread.ofPlatform().start(() =>
      id.where(7):
        assertEquals(Async.blocking(Future(id.get).await), 7)
    )
    seen.join(20_000)
    assert(!seen.isAlive)

  test("the previous binding is restored after the block, also when it throws"):
    val id = ForkLocal("outer")
    id.where("a"):
      intercept[IllegalStateException]:
        id.where("b")(throw IllegalStateException("x"))
      assertEquals(id.get, "a")
    assertEquals(id.get, "outer")

  test("a future keeps the binding it was started with; its own binding stays its own"):
    val id = ForkLocal("none")
    val gate = CountDownLatch(1)
    Async.blocking:
      val (f, innerSeen) = id.where("first"):
        val f = Future:
          gate.await()
          val inner = id.where("child")(Future(id.get).await)
          (id.get, inner)
        (f, id.get)
      assertEquals(innerSeen, "first")
      id.where("changed later")(gate.countDown())
      assertEquals(f.await, ("first", "child"))
      assertEquals(id.get, "none")

  test("a fork through a Scope handle sees the binding of the fiber that starts it"):
    val id = ForkLocal("none")
    val seen = Async.blocking:
      Async.group:
        val scope = Scope.current
        id.where("loop"):
          Future(scope.fork(id.get)).await.await
    assertEquals(seen, "loop")

  test("supervised scopes carry the binding into their futures"):
    val id = ForkLocal(0)
    val seen = Async.blocking:
      id.where(3):
        supervised:
          Future(id.get).await
    assertEquals(seen, 3)
