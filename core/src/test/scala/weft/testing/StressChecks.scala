package weft.testing

import java.util.concurrent.ConcurrentLinkedQueue
import scala.jdk.CollectionConverters.*

/** What the stress suites share: a deadline with a thread dump, the exactly-once check. */
trait StressChecks:
  self: munit.FunSuite =>

  /** Runs `body`; if it is not done in time, fails with a dump of every thread (virtual too). */
  def withinDeadline(seconds: Int, dumpPrefix: String)(body: => Unit): Unit =
    @volatile var failure: Throwable | Null = null
    val t = Thread.ofPlatform().start: () =>
      try body
      catch case e: Throwable => failure = e
    t.join(seconds * 1000L)
    if t.isAlive then
      val file = java.nio.file.Files.createTempFile(dumpPrefix, ".txt")
      java.nio.file.Files.delete(file)
      java.lang.management.ManagementFactory
        .getPlatformMXBean(classOf[com.sun.management.HotSpotDiagnosticMXBean])
        .dumpThreads(
          file.toString,
          com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN
        )
      t.interrupt()
      fail(s"not finished in $seconds s (a livelock?); every thread's stack in $file")
    if failure != null then throw failure.nn

  /**
   * A test whose body runs under [[withinDeadline]]: it fails with a thread dump instead of
   * hanging (munit's timeout does not cut a synchronous test short).
   */
  def boundedTest(name: String, seconds: Int = 20)(body: => Unit)(using munit.Location): Unit =
    test(name)(withinDeadline(seconds, "bounded-test")(body))

  /** Every value whose send reported delivery was received exactly once, and nothing else. */
  def assertExactlyOnce(
      received: ConcurrentLinkedQueue[Int],
      delivered: ConcurrentLinkedQueue[Int]
  ): Unit =
    val got = received.asScala.toVector.sorted
    assertEquals(got.distinct.length, got.length, "a value was received twice")
    assertEquals(got, delivered.asScala.toVector.sorted)
