package weft

import org.jetbrains.kotlinx.lincheck.LinCheckerKt
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions

/**
 * Lincheck runs sized for CI on 2 cores, shared by the suites of the lock-free structures. The
 * iteration counts the suites give are the stress run's (`./sbtw stress`); the test run checks a
 * fifth of the scenarios (at least two), each with all its invocations (see
 * [[weft.testing.Stress]]).
 */
object LincheckRuns:

  // `sample` 0: a fifth of the full count, at least two.
  private def scenarios(iterations: Int, sample: Int): Int =
    val s = if sample > 0 then sample else math.max(2, iterations / 5)
    weft.testing.Stress.size(full = iterations, sample = math.min(s, iterations))

  /**
   * Model-checks `target` (a class with `@Operation`s): `iterations` scenarios of `threads` x
   * `actorsPerThread` operations, `invocations` interleavings each. The test run checks
   * `sample` scenarios (if > 0; else a fifth, at least two).
   */
  def modelCheck(
      target: Class[?],
      iterations: Int,
      invocations: Int,
      threads: Int,
      actorsPerThread: Int,
      sample: Int = 0
  ): Unit =
    val o = ModelCheckingOptions().iterations(scenarios(iterations, sample))
      .invocationsPerIteration(invocations)
      .threads(threads).actorsPerThread(actorsPerThread)
    // Lincheck instruments classes lazily inside an invocation; at load ~9 on 2 cores that once
    // outlasted its default 20 s invocation timeout and was reported as a hang. 2.39 exposes the
    // setting only under its Kotlin-internal name.
    o.invocationTimeout$lincheck(60_000L)
    LinCheckerKt.check(o, target)

  /**
   * Runs `target` in stress mode: real threads, `iterations` x `invocations` executions (the
   * test run: `sample` scenarios, as [[modelCheck]]).
   */
  def stress(
      target: Class[?],
      iterations: Int,
      invocations: Int,
      threads: Int,
      actorsPerThread: Int,
      sample: Int = 0
  ): Unit =
    val o = StressOptions().iterations(scenarios(iterations, sample))
      .invocationsPerIteration(invocations)
      .threads(threads).actorsPerThread(actorsPerThread)
    LinCheckerKt.check(o, target)
