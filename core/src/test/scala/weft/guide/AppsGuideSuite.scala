package weft.guide

import scala.concurrent.duration.*
import weft.*
import weft.testing.ChildJvm

// example: apps-app
object Ticker extends WeftApp.Simple:
  override def shutdownGrace: FiniteDuration = 5.seconds // 10 seconds unless overridden

  def runSimple(args: Seq[String])(using Async): Unit =
    val heartbeat = Future:
      while true do sleep(1.second)
    try
      println("ready")
      heartbeat.await // until the scope is cancelled
    finally println("stopped") // runs on Ctrl-C (SIGINT) and on kill (SIGTERM) too
// end

/** The example of docs/guide/apps.md, run in a child JVM and stopped by a real signal. */
class AppsGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("apps: SIGTERM cancels the app's scope; its finally runs; exit code 143"):
    val p = ChildJvm.start("weft.guide.Ticker")
    val out = ChildJvm.output(p)
    assertEquals(out.readLine(), "ready", String(p.getErrorStream.readAllBytes()))
    ChildJvm.signal(p, "TERM")
    assertEquals(ChildJvm.exitCode(p), 143)
    assertEquals(out.readLine(), "stopped")
