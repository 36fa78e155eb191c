package weft.bench.flow

import weft.bench.{EffectRuntimes, OnVirtualThread}

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*

/**
 * Workload `flow-merge-4`: four sources of 250,000 integers each merged into one stream (one
 * million elements, in no particular order) and summed; one op is one whole run. Every op
 * starts on the JMH thread: weft and ox on a virtual thread started for the op, each source on
 * a virtual thread of its own; fs2 and ZIO as one `unsafeRun`, the sources as fibers; Pekko
 * materialises the graph on its actor system and the JMH thread awaits the sum.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
class Merge4:
  import Merge4.*

  private var pekko: PekkoStreams = null

  /** Creates Pekko's actor system and materializer once per trial. */
  @Setup(Level.Trial)
  def setup(): Unit = pekko = PekkoStreams("flow-merge-4")

  /** Stops Pekko's actor system. */
  @TearDown(Level.Trial)
  def teardown(): Unit = pekko.close()

  /** weft: `Flow.merge` of the four sources, `runFold`, in one `Async.blocking`. */
  @Benchmark
  def weft(): Long =
    import _root_.weft.flow.Flow
    val sum = OnVirtualThread.blocking(
      Flow.merge(Parts.map(Flow.fromIterable)*).runFold(0L)(_ + _)
    )
    FlowChecks.expect(Id, "weft", sum, Expected)

  /** ox: the sources chained with `merge` (ox merges two flows at a time), `runFold`. */
  @Benchmark
  def ox(): Long =
    import _root_.ox.flow.Flow
    val sources = Parts.map(Flow.fromIterable)
    val sum = OnVirtualThread.run(
      sources.reduce(_.merge(_)).runFold(0L)(_ + _)
    )
    FlowChecks.expect(Id, "ox", sum, Expected)

  /** fs2: a stream of the four sources, `parJoinUnbounded`, run with `unsafeRunSync`. */
  @Benchmark
  def fs2(): Long =
    import _root_.fs2.Stream
    import _root_.cats.effect.IO
    val sources = Parts.map(Stream.iterable(_).covary[IO])
    val sum = EffectRuntimes.runCats(
      Stream.emits(sources).covary[IO].parJoinUnbounded.compile.fold(0L)(_ + _)
    )
    FlowChecks.expect(Id, "fs2", sum, Expected)

  /** ZIO Streams: `ZStream.mergeAllUnbounded()` of the four sources, run unsafely. */
  @Benchmark
  def zioStreams(): Long =
    import _root_.zio.stream.ZStream
    val sources = Parts.map(ZStream.fromIterable(_))
    val sum = EffectRuntimes.runZio(
      ZStream.mergeAllUnbounded()(sources*).runFold(0L)(_ + _)
    )
    FlowChecks.expect(Id, "zioStreams", sum, Expected)

  /** Pekko Streams: `Source.combine(...)(Merge(_))` of the four sources, `Sink.fold`. */
  @Benchmark
  def pekkoStreams(): Long =
    import org.apache.pekko.stream.scaladsl.{Merge, Sink, Source}
    val p = pekko
    import p.given
    val sources = Parts.map(Source(_))
    val merged = Source.combine(sources(0), sources(1), sources.drop(2)*)(Merge(_))
    val sum = p.await(merged.runWith(Sink.fold(0L)(_ + _)))
    FlowChecks.expect(Id, "pekkoStreams", sum, Expected)

/** The shape of the workload. */
object Merge4:

  /** The workload's id in the shootout. */
  final val Id = "flow-merge-4"

  /** Elements per source. */
  final val PerSource = 250_000

  /** Number of sources. */
  final val Sources = 4

  /**
   * The data of each source, read through each library's source from an `Iterable`: the four
   * cover `0 until 1,000,000` between them.
   */
  val Parts: Seq[Range] = (0 until Sources).map(i => i * PerSource until (i + 1) * PerSource)

  /** The sum of every element of every source. */
  val Expected: Long = (0L until Sources.toLong * PerSource).sum
