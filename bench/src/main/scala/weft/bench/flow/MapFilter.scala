package weft.bench.flow

import weft.bench.{EffectRuntimes, OnVirtualThread}

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*

/**
 * Workload `flow-map-filter-1m`: one million integers through `map`, `filter` and a fold, the
 * fused path of a stream library (no asynchronous boundary anywhere); one op is one whole run.
 * Every op starts on the JMH thread (a platform thread): weft and ox run the flow on a virtual
 * thread started for the op, as their users run blocking code; fs2 and ZIO as one `unsafeRun`
 * on their runtimes; Pekko materialises the stream on its actor system and the JMH thread awaits
 * the result; the `iterator` baseline runs on the JMH thread itself.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
class MapFilter:
  import MapFilter.*

  private var pekko: PekkoStreams = null

  /** Creates Pekko's actor system and materializer once per trial. */
  @Setup(Level.Trial)
  def setup(): Unit = pekko = PekkoStreams("flow-map-filter")

  /** Stops Pekko's actor system. */
  @TearDown(Level.Trial)
  def teardown(): Unit = pekko.close()

  /** weft: `Flow.fromIterable(...).map(...).filter(...).runFold(...)` in one `Async.blocking`. */
  @Benchmark
  def weft(): Long =
    import _root_.weft.flow.Flow
    val sum = OnVirtualThread.blocking(
      Flow.fromIterable(Data).map(_ * 2).filter(_ % 3 == 0).runFold(0L)(_ + _)
    )
    FlowChecks.expect(Id, "weft", sum, Expected)

  /** ox: `Flow.fromIterable(...)` through `map`, `filter`, `runFold`. */
  @Benchmark
  def ox(): Long =
    import _root_.ox.flow.Flow
    val sum = OnVirtualThread.run(
      Flow.fromIterable(Data).map(_ * 2).filter(_ % 3 == 0).runFold(0L)(_ + _)
    )
    FlowChecks.expect(Id, "ox", sum, Expected)

  /** fs2: `Stream.iterable(...)` in `IO`, `compile.fold`, run with `unsafeRunSync`. */
  @Benchmark
  def fs2(): Long =
    import _root_.fs2.Stream
    import _root_.cats.effect.IO
    val sum = EffectRuntimes.runCats(
      Stream.iterable(Data).covary[IO].map(_ * 2).filter(_ % 3 == 0).compile.fold(0L)(_ + _)
    )
    FlowChecks.expect(Id, "fs2", sum, Expected)

  /** ZIO Streams: `ZStream.fromIterable(...).map(...).filter(...).runFold(...)`, run unsafely. */
  @Benchmark
  def zioStreams(): Long =
    import _root_.zio.stream.ZStream
    val sum = EffectRuntimes.runZio(
      ZStream.fromIterable(Data).map(_ * 2).filter(_ % 3 == 0).runFold(0L)(_ + _)
    )
    FlowChecks.expect(Id, "zioStreams", sum, Expected)

  /** Pekko Streams: `Source(data)` through `map`, `filter`, `runWith(Sink.fold(...))`. */
  @Benchmark
  def pekkoStreams(): Long =
    import org.apache.pekko.stream.scaladsl.{Sink, Source}
    val p = pekko
    import p.given
    val sum = p.await(
      Source(Data).map(_ * 2).filter(_ % 3 == 0).runWith(Sink.fold(0L)(_ + _))
    )
    FlowChecks.expect(Id, "pekkoStreams", sum, Expected)

  /** The baseline: the same pipeline as a plain `Iterator`, no library at all. */
  @Benchmark
  def iterator(): Long =
    val sum = Data.iterator.map(_ * 2).filter(_ % 3 == 0).foldLeft(0L)(_ + _)
    FlowChecks.expect(Id, "iterator", sum, Expected)

/** The shape of the workload. */
object MapFilter:

  /** The workload's id in the shootout. */
  final val Id = "flow-map-filter-1m"

  /** Elements per run. */
  final val Size = 1_000_000

  /** The data every contender reads, through its library's source from an `Iterable`. */
  val Data: Range = 0 until Size

  /** The fold's value: the doubled elements divisible by 3, summed. */
  val Expected: Long = (0L until Size).map(_ * 2).filter(_ % 3 == 0).sum
