package weft.bench.flow

import weft.bench.{EffectRuntimes, OnVirtualThread}

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import org.openjdk.jmh.infra.Blackhole

/**
 * Workload `flow-mappar-8`: ten thousand elements through a parallel map of at most 8 small
 * tasks at once (`Blackhole.consumeCPU(100)` each, as `par-map-1000`), results in input order,
 * folded by an order-sensitive hash; one op is one whole run. Every op starts on the JMH thread:
 * weft and ox on a virtual thread started for the op, their tasks on virtual threads; fs2 and
 * ZIO as one `unsafeRun`, their tasks as fibers of their runtimes; Pekko's `mapAsync` tasks as
 * `Future`s on its dispatcher, the JMH thread awaiting the materialised result.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
class MapPar8:
  import MapPar8.*

  private var pekko: PekkoStreams = null

  /** Creates Pekko's actor system and materializer once per trial. */
  @Setup(Level.Trial)
  def setup(): Unit = pekko = PekkoStreams("flow-mappar-8")

  /** Stops Pekko's actor system. */
  @TearDown(Level.Trial)
  def teardown(): Unit = pekko.close()

  /** weft: `Flow.fromIterable(...).mapPar(8)(task)` folded, in one `Async.blocking`. */
  @Benchmark
  def weft(): Long =
    import _root_.weft.flow.Flow
    val h = OnVirtualThread.blocking(
      Flow.fromIterable(Data).mapPar(Parallelism)(task).runFold(0L)(FlowChecks.hash)
    )
    FlowChecks.expect(Id, "weft", h, Expected)

  /** ox: `Flow.fromIterable(...).mapPar(8)(task)` folded. */
  @Benchmark
  def ox(): Long =
    import _root_.ox.flow.Flow
    val h = OnVirtualThread.run(
      Flow.fromIterable(Data).mapPar(Parallelism)(task).runFold(0L)(FlowChecks.hash)
    )
    FlowChecks.expect(Id, "ox", h, Expected)

  /** fs2: `parEvalMap(8)(x => IO(task(x)))`, run with `unsafeRunSync`. */
  @Benchmark
  def fs2(): Long =
    import _root_.fs2.Stream
    import _root_.cats.effect.IO
    val h = EffectRuntimes.runCats(
      Stream
        .iterable(Data)
        .covary[IO]
        .parEvalMap(Parallelism)(x => IO(task(x)))
        .compile
        .fold(0L)(FlowChecks.hash)
    )
    FlowChecks.expect(Id, "fs2", h, Expected)

  /** ZIO Streams: `mapZIOPar(8)(x => ZIO.succeed(task(x)))`, run unsafely. */
  @Benchmark
  def zioStreams(): Long =
    import _root_.zio.ZIO
    import _root_.zio.stream.ZStream
    val h = EffectRuntimes.runZio(
      ZStream
        .fromIterable(Data)
        .mapZIOPar(Parallelism)(x => ZIO.succeed(task(x)))
        .runFold(0L)(FlowChecks.hash)
    )
    FlowChecks.expect(Id, "zioStreams", h, Expected)

  /** Pekko Streams: `mapAsync(8)(x => Future(task(x)))` on the system's dispatcher. */
  @Benchmark
  def pekkoStreams(): Long =
    import org.apache.pekko.stream.scaladsl.{Sink, Source}
    import scala.concurrent.Future
    val p = pekko
    import p.given
    val h = p.await(
      Source(Data)
        .mapAsync(Parallelism)(x => Future(task(x)))
        .runWith(Sink.fold(0L)(FlowChecks.hash))
    )
    FlowChecks.expect(Id, "pekkoStreams", h, Expected)

/** The shape of the workload. */
object MapPar8:

  /** The workload's id in the shootout. */
  final val Id = "flow-mappar-8"

  /** Elements per run. */
  final val Size = 10_000

  /** The data every contender reads, through its library's source from an `Iterable`. */
  val Data: Range = 0 until Size

  /** Tasks running at once. */
  final val Parallelism = 8

  /** CPU tokens each task burns (`Blackhole.consumeCPU`): a small task, not an empty one. */
  final val Tokens = 100L

  /** One small task. */
  def task(x: Int): Int =
    Blackhole.consumeCPU(Tokens)
    x * 2

  /** The fold's value: the hash of the doubled elements in input order. */
  val Expected: Long = (0 until Size).foldLeft(0L)((acc, x) => FlowChecks.hash(acc, x * 2))
