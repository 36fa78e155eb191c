package weft.app

import java.nio.file.{Files, Path}
import scala.jdk.CollectionConverters.*
import weft.testing.ChildJvm

/** `WeftApp` in real child JVMs: exit codes, and real SIGTERM / SIGINT cancelling the scope. */
class WeftAppSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(180, "s")

  /** Starts `app` (an object of this package) in a child JVM with this JVM's class path. */
  def start(app: String, args: String*): Process = ChildJvm.start(s"weft.app.$app", args*)

  /** Reads the child's standard output until it prints `ready` (its scope is running). */
  def awaitReady(p: Process): Unit =
    val line = ChildJvm.output(p).readLine()
    assertEquals(
      line,
      "ready",
      s"the app did not start: ${String(p.getErrorStream.readAllBytes())}"
    )

  /** The exit code; fails instead of hanging if the child does not exit within a minute. */
  def exitCode(p: Process): Int = ChildJvm.exitCode(p)

  def signal(p: Process, name: String): Unit = ChildJvm.signal(p, name)

  def lines(marker: Path): Seq[String] =
    if Files.exists(marker) then Files.readAllLines(marker).asScala.toSeq.sorted else Nil

  /**
   * Starts `app` with a fresh marker file, sends it signal `name` once it is ready, checks that
   * the JVM exits with `code`, and returns the lines the app noted.
   */
  def signalled(app: String, name: String, code: Int): Seq[String] =
    val marker = Files.createTempFile("weft-app", ".txt")
    Files.delete(marker)
    val p = start(app, marker.toString)
    awaitReady(p)
    signal(p, name)
    assertEquals(exitCode(p), code)
    lines(marker)

  /** Sends `name` to a waiting app: the scope's finally blocks run, the JVM exits with `code`. */
  def signalCancelsTheScope(name: String, code: Int): Unit =
    assertEquals(signalled("WaitingApp", name, code), Seq("body cleanup", "child cleanup"))

  test("SIGTERM cancels the scope: the body's and the child's finally blocks run; exit 143"):
    signalCancelsTheScope("TERM", 143)

  test("SIGINT (Ctrl-C) does the same; exit 130"):
    assume(!ChildJvm.ignores(2), "SIGINT is ignored in this process tree (started in background)")
    signalCancelsTheScope("INT", 130)

  test("an app that observes the request drains: its work finishes, nothing is cancelled"):
    assertEquals(signalled("DrainingApp", "TERM", 143), Seq("drained", "work finished"))

  test("SIGINT drains the same way; exit 130"):
    assume(!ChildJvm.ignores(2), "SIGINT is ignored in this process tree (started in background)")
    assertEquals(signalled("DrainingApp", "INT", 130), Seq("drained", "work finished"))

  test(
    "the drain ends at drainGrace, not at shutdownGrace: a stuck drain is cut off and cancelled"
  ):
    assertEquals(signalled("StuckDrainApp", "TERM", 143), Seq("cancelled"))

  test("run's code is the exit code, after the futures it left running are cancelled"):
    assertEquals(exitCode(start("ExitCodeApp")), 3)

  test("an exception from run is printed and exits with 1"):
    val p = start("FailingApp")
    val code = exitCode(p)
    val err = String(p.getErrorStream.readAllBytes())
    assertEquals(code, 1)
    assert(err.contains("the app failed on purpose"), err)

  test("cleanup that outlasts the grace period is cut short: the JVM still exits"):
    assertEquals(signalled("SlowCleanupApp", "TERM", 143), Seq("cleanup started"))

  test("a signal during an uninterruptible JDK call in run is deferred to the block's end"):
    assertEquals(signalled("BlockingCleanupApp", "TERM", 143), Seq("block finished"))
