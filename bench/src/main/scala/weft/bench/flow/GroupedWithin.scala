package weft.bench.flow

import weft.bench.{EffectRuntimes, OnVirtualThread}

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import scala.concurrent.duration.*

/**
 * Workload `flow-grouped-within`: one million integers batched by `groupedWithin(100, 1 ms)` (a
 * batch ends at 100 elements or 1 ms after its first, whichever comes first), the batches' sizes
 * summed; one op is one whole run. The producer never pauses, so nearly every batch is full: the
 * workload measures what the timer costs on the fast path. Every op starts on the JMH thread:
 * weft and ox on a virtual thread started for the op; fs2 and ZIO as one `unsafeRun`; Pekko
 * materialises the stream on its actor system and the JMH thread awaits the sum.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
class GroupedWithin:
  import GroupedWithin.*

  private var pekko: PekkoStreams = null

  /** Creates Pekko's actor system and materializer once per trial. */
  @Setup(Level.Trial)
  def setup(): Unit = pekko = PekkoStreams("flow-grouped-within")

  /** Stops Pekko's actor system. */
  @TearDown(Level.Trial)
  def teardown(): Unit = pekko.close()

  /** weft: `Flow.fromIterable(...).groupedWithin(100, 1.millisecond)`, sizes folded. */
  @Benchmark
  def weft(): Long =
    import _root_.weft.flow.Flow
    val total = OnVirtualThread.blocking(
      Flow.fromIterable(Data).groupedWithin(BatchSize, Window).runFold(0L)(_ + _.size)
    )
    FlowChecks.expect(Id, "weft", total, Size)

  /** ox: `Flow.fromIterable(...).groupedWithin(100, 1.millisecond)`, sizes folded. */
  @Benchmark
  def ox(): Long =
    import _root_.ox.flow.Flow
    val total = OnVirtualThread.run(
      Flow.fromIterable(Data).groupedWithin(BatchSize, Window).runFold(0L)(_ + _.size)
    )
    FlowChecks.expect(Id, "ox", total, Size)

  /** fs2: `groupWithin(100, 1.millisecond)` in `IO`, sizes folded, run with `unsafeRunSync`. */
  @Benchmark
  def fs2(): Long =
    import _root_.fs2.Stream
    import _root_.cats.effect.IO
    val total = EffectRuntimes.runCats(
      Stream
        .iterable(Data)
        .covary[IO]
        .groupWithin(BatchSize, Window)
        .compile
        .fold(0L)(_ + _.size)
    )
    FlowChecks.expect(Id, "fs2", total, Size)

  /** ZIO Streams: `groupedWithin(100, 1 ms)`, sizes folded, run unsafely. */
  @Benchmark
  def zioStreams(): Long =
    import _root_.zio.Duration
    import _root_.zio.stream.ZStream
    val total = EffectRuntimes.runZio(
      ZStream
        .fromIterable(Data)
        .groupedWithin(BatchSize, Duration.fromScala(Window))
        .runFold(0L)(_ + _.size)
    )
    FlowChecks.expect(Id, "zioStreams", total, Size)

  /** Pekko Streams: `groupedWithin(100, 1.millisecond)`, sizes folded by `Sink.fold`. */
  @Benchmark
  def pekkoStreams(): Long =
    import org.apache.pekko.stream.scaladsl.{Sink, Source}
    val p = pekko
    import p.given
    val total = p.await(
      Source(Data).groupedWithin(BatchSize, Window).runWith(Sink.fold(0L)(_ + _.size))
    )
    FlowChecks.expect(Id, "pekkoStreams", total, Size)

/** The shape of the workload. */
object GroupedWithin:

  /** The workload's id in the shootout. */
  final val Id = "flow-grouped-within"

  /** Elements per run. */
  final val Size = 1_000_000

  /** The data every contender reads, through its library's source from an `Iterable`. */
  val Data: Range = 0 until Size

  /** The most elements in a batch. */
  final val BatchSize = 100

  /** The longest a batch waits for its last element. */
  val Window: FiniteDuration = 1.millisecond
