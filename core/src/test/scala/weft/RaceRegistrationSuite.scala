package weft

import java.util.concurrent.atomic.AtomicReference
import scala.util.{Success, Try}

/**
 * A race can be won while it is still registering its listener on its sources (a source
 * registered earlier completes it from another thread): the registration then drops the
 * listener it has just added, so that no source keeps a listener of a race that is over.
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
