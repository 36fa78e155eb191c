package weft

import java.util.concurrent.{CompletableFuture, TimeUnit}
import weft.runtime.AsyncSupport
import weft.internal.runtime.TimerSlack

/**
 * The timer thread's slack: asked for on Linux when native access is enabled (the test JVMs run
 * with `--enable-native-access=ALL-UNNAMED`), on that thread only; the property's values.
 */
class TimerSlackSuite extends munit.FunSuite:

  private val onLinux = System.getProperty("os.name").toLowerCase.startsWith("linux")
  private val prctlHere = TimerSlack.usableHere

  /** Runs `read` on the timer thread (as a scheduled task) and returns its value. */
  private def onTimerThread[T](read: => T): T =
    val result = CompletableFuture[T]()
    AsyncSupport.default.scheduler.schedule(0L, () => result.complete(read))
    result.get(30, TimeUnit.SECONDS)

  test("the test JVM can call prctl (Linux, JDK 22+, native access enabled)"):
    assume(onLinux, "timer slack is a Linux feature")
    assert(prctlHere)
    assert(TimerSlack.currentThreadSlack.exists(_ > 0))

  test("the timer thread runs with the configured slack"):
    assume(prctlHere)
    assertEquals(TimerSlack.configured, Some(TimerSlack.DefaultNanos))
    assertEquals(onTimerThread(TimerSlack.currentThreadSlack), Some(TimerSlack.DefaultNanos))

  test("other threads keep their slack"):
    assume(prctlHere)
    val before = TimerSlack.currentThreadSlack
    onTimerThread(())
    assertEquals(TimerSlack.currentThreadSlack, before)
    val fresh = CompletableFuture[Option[Long]]()
    weft.testing.Waits.join(
      Thread.ofPlatform().start(() => fresh.complete(TimerSlack.currentThreadSlack)),
      "a fresh thread reading its slack"
    )
    assertNotEquals(fresh.get(), Some(TimerSlack.DefaultNanos))

  test("prctl is used only on Linux, JDK 22+, with native access"):
    assert(TimerSlack.usable("Linux", 22, true))
    assert(!TimerSlack.usable("Linux", 21, true))
    assert(!TimerSlack.usable("Linux", 25, false))
    assert(!TimerSlack.usable("Mac OS X", 25, true))
    assert(!TimerSlack.usable("Windows 11", 25, true))

  test("the property takes a positive number of nanoseconds or off"):
    assertEquals(TimerSlack.parse("2500"), Some(2500L))
    assertEquals(TimerSlack.parse(" 1 "), Some(1L))
    assertEquals(TimerSlack.parse("off"), None)
    assertEquals(TimerSlack.parse("OFF"), None)
    for bad <- Seq("0", "-5", "1us", "", "9223372036854775808") do
      val e = intercept[IllegalArgumentException](TimerSlack.parse(bad))
      assert(e.getMessage.contains(TimerSlack.PropertyName), e.getMessage)
