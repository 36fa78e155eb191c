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
 * `jdkScheduledExecutor` gets the same policy: the like-for-like row. `jdkDefaultPolicy` is the
 * executor as `Executors.newSingleThreadScheduledExecutor()` makes it: cancelled 10-second
 * tasks stay queued until their time, the queue grows through the whole trial, and its score
 * falls from iteration to iteration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(TimerArmCancel.N)
class TimerArmCancel:
  import TimerArmCancel.*

  private var jdk: ScheduledThreadPoolExecutor = null
  private var jdkDefault: ScheduledThreadPoolExecutor = null

  /** Starts the JDK executors. */
  @Setup def setup(): Unit =
    jdk = ScheduledThreadPoolExecutor(1)
    jdk.setRemoveOnCancelPolicy(true)
    jdkDefault = ScheduledThreadPoolExecutor(1)

  /** Stops the JDK executors. */
  @TearDown def tearDown(): Unit =
    jdk.shutdownNow()
    jdkDefault.shutdownNow()

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
  def jdkScheduledExecutor(): Int = VirtualLoop.run(armAndCancel(jdk))

  /** JDK with its default policy: cancelled tasks stay in the queue (not like for like). */
  @Benchmark
  def jdkDefaultPolicy(): Int = VirtualLoop.run(armAndCancel(jdkDefault))

  private def armAndCancel(ex: ScheduledThreadPoolExecutor): Int =
    var n = 0
    var i = 0
    while i < N do
      val f = ex.schedule(Noop, 10, TimeUnit.SECONDS)
      if f.cancel(false) then n += 1
      i += 1
    n

/** Parameters of [[TimerArmCancel]]. */
object TimerArmCancel:
  /** Operations per invocation. */
  inline val N = 1000

  /** A delay that never elapses during a run. */
  val Delay: FiniteDuration = 10.seconds

  private val Noop: Runnable = () => ()
