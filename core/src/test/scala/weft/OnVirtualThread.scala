package weft

import weft.testing.StressChecks

/**
 * Runs every test of the suite it is mixed into on a fresh virtual thread instead of munit's
 * platform thread: `Async.blocking` entered from a virtual thread takes another path (the body
 * runs on the caller, the root scope is cancelled and joined by the caller), which a suite run
 * only from the platform thread never exercises. A test that hangs there fails after 30 s with
 * every thread's stack.
 */
trait OnVirtualThread extends munit.FunSuite, StressChecks:

  override def munitTestTransforms: List[TestTransform] =
    super.munitTestTransforms :+ TestTransform(
      "on a virtual thread",
      t => t.withBody(() => onVirtualThread(t.body()))
    )

  private def onVirtualThread[A](body: => A): A =
    var result: scala.util.Try[A] | Null = null
    try
      withinDeadline(30, "weft-on-virtual-thread-"):
        val vt = Thread.ofVirtual().start(() => result = scala.util.Try(body))
        vt.join()
    catch
      case e: AssertionError =>
        fail(s"broken: a scope entered from a virtual thread returns\n${e.getMessage}", e)
    result.nn.get

/** [[StructuredConcurrencySuite]], every test entering its scopes from a virtual thread. */
class StructuredConcurrencyOnVirtualThreadSuite extends StructuredConcurrencySuite, OnVirtualThread

/** [[CancellationSuite]], every test entering its scopes from a virtual thread. */
class CancellationOnVirtualThreadSuite extends CancellationSuite, OnVirtualThread

/** The transform of [[OnVirtualThread]] does run the tests on a virtual thread. */
class OnVirtualThreadSuite extends munit.FunSuite, OnVirtualThread:
  test("a test body runs on a virtual thread"):
    assert(Thread.currentThread().isVirtual, Thread.currentThread())
