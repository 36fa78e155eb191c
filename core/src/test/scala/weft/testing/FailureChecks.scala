package weft.testing

import java.util.concurrent.ConcurrentLinkedQueue
import scala.jdk.CollectionConverters.*
import weft.UnobservedFailures

/**
 * What the suites of failure bookkeeping share: each test run from a platform caller and from a
 * virtual one, under a deadline, and the failures reported to [[weft.UnobservedFailures]] while
 * a body runs.
 */
trait FailureChecks extends StressChecks:
  self: munit.FunSuite =>

  /** How long each of a test's two runs may take. */
  def callerDeadlineSeconds: Int = 20

  /**
   * Registers `body` as two tests, "`name` (platform caller)" and "`name` (virtual caller)": each
   * runs it on a new thread of that kind and rethrows what it threw.
   */
  def onBothCallers(name: String)(body: => Unit)(using munit.Location): Unit =
    for virtual <- Seq(false, true) do
      val kind = if virtual then "virtual" else "platform"
      boundedTest(s"$name ($kind caller)", callerDeadlineSeconds):
        @volatile var thrown: Throwable | Null = AssertionError("the caller did not run")
        val builder = if virtual then Thread.ofVirtual() else Thread.ofPlatform()
        val caller = builder.start: () =>
          try
            body
            thrown = null
          catch case e: Throwable => thrown = e
        caller.join() // bounded by the test's deadline
        if thrown != null then throw thrown.nn

  /** Runs `body` with a handler that records every report; returns the reports, in order. */
  def reported(body: => Unit): List[Throwable] =
    val reports = ConcurrentLinkedQueue[Throwable]()
    UnobservedFailures.withHandler(e => reports.add(e): Unit)(body)
    reports.asScala.toList
