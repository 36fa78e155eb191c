package weft.bench.par

import weft.bench.EffectRuntimes

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import org.openjdk.jmh.infra.Blackhole

/**
 * Workload `par-map-1000`: map 1000 small tasks (a few hundred nanoseconds of CPU each) with a
 * parallelism of 8, results in input order; one op is one whole map. Every contender is called
 * from the JMH thread (a platform thread) as its users write it, and runs its tasks on its own
 * kind of thread: weft and ox on virtual threads, cats-effect and ZIO as fibers on their default
 * runtimes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
class ParMap1000:
  import ParMap1000.*

  private val input: Vector[Int] = Vector.range(0, Size)

  /** weft: `xs.mapPar(8)(f)` in one `Async.blocking`. */
  @Benchmark
  def weft(): Vector[Int] =
    import _root_.weft.{Async, mapPar}
    _root_.weft.bench.OnVirtualThread.blocking(input.mapPar(Parallelism)(task))

  /** ox: `xs.mapPar(8)(f)` (it opens its own scope). */
  @Benchmark
  def ox(): Vector[Int] =
    import _root_.ox.mapPar
    input.mapPar(Parallelism)(task)

  /** cats-effect: `xs.parTraverseN(8)(x => IO(f(x)))`, run with `unsafeRunSync`. */
  @Benchmark
  def catsEffect(): Vector[Int] =
    import cats.effect.IO
    import cats.effect.syntax.all.*
    EffectRuntimes.runCats(input.parTraverseN(Parallelism)(x => IO(task(x))))

  /** ZIO: `ZIO.foreachPar(xs)(x => ZIO.succeed(f(x))).withParallelism(8)`, run unsafely. */
  @Benchmark
  def zio(): Vector[Int] =
    import _root_.zio.ZIO
    val program = ZIO.foreachPar(input)(x => ZIO.succeed(task(x))).withParallelism(Parallelism)
    EffectRuntimes.runZio(program)

/** The shape of the workload. */
object ParMap1000:

  /** Tasks per map. */
  final val Size = 1000

  /** Tasks running at once. */
  final val Parallelism = 8

  /** CPU tokens each task burns (`Blackhole.consumeCPU`): a small task, not an empty one. */
  final val Tokens = 100L

  /** One small task. */
  def task(x: Int): Int =
    Blackhole.consumeCPU(Tokens)
    x * 2
