package weft.app

import java.nio.file.{Files, Path, Paths, StandardOpenOption}
import weft.*

/** Sample applications that `WeftAppSuite` runs in child JVMs. */
private def note(marker: Path, line: String): Unit =
  Files.writeString(marker, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND): Unit

/** Waits for a signal; its body and a child future each note their cleanup in `args(0)`. */
object WaitingApp extends WeftApp:
  def run(args: Seq[String])(using Async): Int =
    val marker = Paths.get(args.head)
    val child = Future:
      try sleep(600_000)
      finally note(marker, "child cleanup")
    println("ready")
    try
      child.await
      0
    finally note(marker, "body cleanup")

/** Returns exit code 3 after starting a future that it leaves running. */
object ExitCodeApp extends WeftApp:
  def run(args: Seq[String])(using Async): Int =
    Future(sleep(600_000))
    3

/** Throws from its body. */
object FailingApp extends WeftApp.Simple:
  def runSimple(args: Seq[String])(using Async): Unit =
    throw IllegalStateException("the app failed on purpose")

/** Its cleanup outlasts the grace period of 300 ms. */
object SlowCleanupApp extends WeftApp:
  override def shutdownGrace = scala.concurrent.duration.DurationInt(300).millis
  def run(args: Seq[String])(using Async): Int =
    val marker = Paths.get(args.head)
    println("ready")
    try
      sleep(600_000)
      0
    finally
      note(marker, "cleanup started")
      uninterruptible(Thread.sleep(600_000))
      note(marker, "cleanup finished")

/** Is inside an `uninterruptible` block, in a JDK sleep, when the signal comes. */
object BlockingCleanupApp extends WeftApp:
  def run(args: Seq[String])(using Async): Int =
    val marker = Paths.get(args.head)
    uninterruptible:
      println("ready")
      Thread.sleep(1_000) // the signal arrives meanwhile: deferred, not delivered here
      note(marker, "block finished")
    note(marker, "after the block (must not run)")
    0

/**
 * Observes the shutdown request: its work in flight (a child future) finishes after the
 * request, notes it, and `run` returns; a signal's exit code still wins.
 */
object DrainingApp extends WeftApp:
  def run(args: Seq[String])(using Async): Int =
    val marker = Paths.get(args.head)
    val requested = shutdown.requested // looked at before "ready": a signal finds it observed
    val inFlight = Future:
      requested.await
      sleep(50) // work that is still going on when the request comes
      note(marker, "work finished")
    println("ready")
    inFlight.await
    note(marker, "drained")
    0

/**
 * Observes the shutdown request but never drains: with a drain deadline of a millisecond and a
 * cancel grace of ten minutes, SIGTERM cuts it off at once and the cancel ends it; the graces
 * swapped, the drain would outlast the test's deadline.
 */
object StuckDrainApp extends WeftApp:
  override def drainGrace: scala.concurrent.duration.FiniteDuration =
    scala.concurrent.duration.FiniteDuration(1, "ms")
  override def shutdownGrace: scala.concurrent.duration.FiniteDuration =
    scala.concurrent.duration.FiniteDuration(10, "minutes")
  def run(args: Seq[String])(using Async): Int =
    val marker = Paths.get(args.head)
    val requested = shutdown.requested // looked at before "ready": a signal finds it observed
    val stuck = Future:
      requested.await
      try sleep(600_000)
      finally note(marker, "cancelled")
    println("ready")
    stuck.await
    0
