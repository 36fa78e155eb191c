package weft

import weft.*
import weft.testing.Stress

/**
 * The race of a `withTimeout` timer firing while its body returns, many times over (tagged
 * Stress: full size in `./sbtw stress`, a sample in `./sbtw test`): every round ends with its
 * value or `None`, and the caller is left neither interrupted nor cancelled. On a
 * platform-thread caller here, on a virtual one in [[TimeoutRaceVirtualSuite]];
 * [[TimeoutOnCallerSuite]] has a short run of the same check.
 */
class TimeoutRaceSuite extends munit.FunSuite, weft.testing.Deadlined:

  override def testDeadlineSeconds: Int = 120

  test("a timeout firing while the body returns leaves nothing behind".tag(Stress.tag)):
    Async.blocking(TimeoutOnCallerSuite.fireVersusReturn(Stress.size(full = 20_000, sample = 500)))

/** [[TimeoutRaceSuite]] with a virtual-thread caller. */
class TimeoutRaceVirtualSuite extends TimeoutRaceSuite, OnVirtualThread
