package weft

import java.util.concurrent.atomic.AtomicReference
import scala.util.{Success, Try}
import weft.testing.{ControlledSource, InvariantChecks}

/**
 * The life of a race's listener on its sources. A race can be won while it is still registering
 * its listener on its sources (a source registered earlier completes it from another thread):
 * the registration then drops the listener it has just added, so that no source keeps a
 * listener of a race that is over. And once the race's listener is dropped (its awaiter left),
 * no source can complete it any more, even one that still holds the race's wrapper.
 */
class RaceRegistrationSuite extends munit.FunSuite, InvariantChecks:

  test("a race won during registration leaves no listener on the sources registered after"):
    val p = Promise[Int]()
    val late = ControlledSource[Try[Int]](gated = true)
    val race = Async.race(p.future, late)
    val got = AtomicReference[Try[Int] | Null](null)
    holdsWithin(10, "a race drops a listener registered after it was won"):
      val registering = Thread.ofPlatform().start: () =>
        race.onComplete(Listener((v, _) => got.set(v)))
      late.entered.await() // the race's listener is on p, and about to be added to `late`
      p.success(1) // wins the race from this thread
      late.proceed.countDown()
      registering.join()
    assertEquals(got.get, Success(1))
    assertEquals(late.registered.size, 1, "the listener was added after the win")
    assertEquals(late.listeners.size, 0, "the race left its listener on a source after winning")

  test("a race whose listener was dropped can no longer be completed by any source"):
    val src = ControlledSource[Int]()
    val race = Async.race(src, ControlledSource[Int]())
    val got = AtomicReference[Int | Null](null)
    val k = Listener[Int]((v, _) => got.set(v))
    race.onComplete(k)
    val wrapper = src.registered.peek() // what a source in the middle of delivering still holds
    race.dropListener(k)
    assertEquals(src.listeners.size, 0, "the dropped race left its listener on a source")
    assert(!wrapper.completeNow(7, src), "a source completed a race after its listener was dropped")
    assertEquals(got.get, null, "the dropped listener received a value")
