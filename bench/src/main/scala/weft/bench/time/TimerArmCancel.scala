package weft.bench.time

import java.util.concurrent.{ScheduledThreadPoolExecutor, TimeUnit}
import scala.concurrent.duration.*
import org.openjdk.jmh.annotations.*

/**
 * Workload `timer-arm-cancel`: the cost of a timeout that never fires, i.e. arming a 10-second
 * timer and cancelling it. weft's `Timer` (on its shared scheduler) against a JDK
 * `ScheduledThreadPoolExecutor` with one thread, from one virtual thread.
 *
 * weft's scheduler removes a cancelled task from its queue (`setRemoveOnCancelPolicy(true)`), so
 * the JDK executor gets the same policy. With the JDK's default policy (what
 * `Executors.newSingleThreadScheduledExecutor()` gives) every cancelled 10-second task stays
 * queued until it is due: at millions of arms per second the queue filled a 1 GiB heap within
 * the trial and the benchmark ended in `OutOfMemoryError`, so that configuration is not measured.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(TimerArmCancel.N)
class TimerArmCancel:
  import TimerArmCancel.*

  private var jdk: ScheduledThreadPoolExecutor = null

  /** Starts the JDK executor, removing cancelled tasks as weft's scheduler does. */
  @Setup def setup(): Unit =
    jdk = ScheduledThreadPoolExecutor(1)
    jdk.setRemoveOnCancelPolicy(true)

  /** Stops the JDK executor. */
  @TearDown def tearDown(): Unit = jdk.shutdownNow()

  /** weft: `Timer(10.seconds)` then `cancel()`. */
  @Benchmark
  def weft(): Int = VirtualLoop.run {
    var n = 0
    var i = 0
    while i < N do
      val t = _root_.weft.Timer(Delay)
      t.cancel()
      if t.isDone then n += 1
      i += 1
    n
  }

  /** JDK: `schedule(10 s)` then `cancel(false)`, cancelled tasks removed as weft's are. */
  @Benchmark
  def jdkScheduledExecutor(): Int = VirtualLoop.run {
    var n = 0
    var i = 0
    while i < N do
      val f = jdk.schedule(Noop, 10, TimeUnit.SECONDS)
      if f.cancel(false) then n += 1
      i += 1
    n
  }

/** Parameters of [[TimerArmCancel]]. */
object TimerArmCancel:
  /** Operations per invocation. */
  inline val N = 1000

  /** A delay that never elapses during a run. */
  val Delay: FiniteDuration = 10.seconds

  private val Noop: Runnable = () => ()
