package weft.bench.time

import weft.bench.EffectRuntimes

import java.util.concurrent.TimeUnit
import scala.concurrent.duration.*
import org.openjdk.jmh.annotations.*
import weft.Async

/**
 * Workload `timeout-fast`: the overhead of a time limit that never fires. Each op runs a body
 * that returns at once under a 10-second timeout, so the cost is arming and disarming the timer
 * plus whatever fiber the library starts for the body. weft, ox and bare virtual threads run
 * their loop on one virtual thread; cats-effect and ZIO run theirs as one effect on their own
 * runtimes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(TimeoutFast.N)
class TimeoutFast:
  import TimeoutFast.*

  /** weft: `withTimeout(10.seconds)(i)` (the body on the caller, a timer on the shared scheduler). */
  @Benchmark
  def weft(): Long = _root_.weft.bench.OnVirtualThread.blocking {
    var sum = 0L
    var i = 0
    while i < N do
      val v = i.toLong
      sum += _root_.weft.withTimeout(Limit)(v)
      i += 1
    sum
  }

  /** ox: `timeout(10.seconds)(i)` (a race of the body against a sleeping fork). */
  @Benchmark
  def ox(): Long = VirtualLoop.run {
    var sum = 0L
    var i = 0
    while i < N do
      val v = i.toLong
      sum += _root_.ox.timeout(Limit)(v)
      i += 1
    sum
  }

  /** cats-effect: `IO(i).timeout(10.seconds)`, N in sequence as one IO. */
  @Benchmark
  def catsEffect(): Long =
    import cats.effect.IO
    def loop(i: Int, acc: Long): IO[Long] =
      if i == N then IO.pure(acc)
      else IO(i.toLong).timeout(Limit).flatMap(v => loop(i + 1, acc + v))
    EffectRuntimes.runCats(loop(0, 0L))

  /** ZIO: `ZIO.succeed(i).timeout(10.seconds)`, N in sequence as one effect. */
  @Benchmark
  def zio(): Long =
    import _root_.zio.{ZIO, durationInt}
    val program = ZIO.foldLeft(0 until N)(0L)((acc, i) =>
      ZIO.succeed(i.toLong).timeout(10.seconds).map(v => acc + v.getOrElse(0L))
    )
    EffectRuntimes.runZio(program)

  /**
   * weft without the limit: the body as a future in a nested group, awaited directly. What
   * `withTimeout` spent besides its timer when it ran the body on a fiber of its own (a
   * diagnostic baseline; it now runs the body on the caller, ADR 0025).
   */
  @Benchmark
  def weftGroupFutureOnly(): Long = _root_.weft.bench.OnVirtualThread.blocking {
    import _root_.weft.await
    var sum = 0L
    var i = 0
    while i < N do
      val v = i.toLong
      sum += Async.group(_root_.weft.Future(v).await)
      i += 1
    sum
  }

  /** Baseline: the body run directly, with no time limit, on a virtual thread. */
  @Benchmark
  def noTimeout(): Long = VirtualLoop.run {
    var sum = 0L
    var i = 0
    while i < N do
      sum += identityOpaque(i.toLong)
      i += 1
    sum
  }

/** Parameters of [[TimeoutFast]]. */
object TimeoutFast:
  /** Operations per invocation. */
  inline val N = 1000

  /** The limit, far longer than any body: it never fires. */
  val Limit: FiniteDuration = 10.seconds

  /** Keeps the JIT from folding the baseline loop away. */
  @noinline def identityOpaque(v: Long): Long = v
