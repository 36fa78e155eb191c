package weft.bench.keyed

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*

/**
 * Workload `sequentially-hot-keys`: 1000 tasks per batch over 8 keys (heavy per-key contention), empty bodies.
 *
 * The score is batches per second, every batch awaited. See [[SequentiallyContenders]] for the
 * contenders and the threads they run on; `weft` is `submit` + await (the fair, concurrent
 * shape), `weftRun` the direct-style `run` loop (the shape of `catsApplyFSequenced`).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(10)
class SequentiallyHotKeys:
  private val c = SequentiallyContenders(keySpace = 8, sleepy = false, batches = 10)

  /** Starts the peers' runtimes. */
  @Setup(Level.Trial) def setup(): Unit = c.setup()

  /** Stops the peers' runtimes. */
  @TearDown(Level.Trial) def teardown(): Unit = c.teardown()

  /** weft: `submit` every task of a batch, then await each future. */
  @Benchmark def weft(): Int = c.weftSubmit()

  /** weft, direct style: `run` each task in turn from one fiber. */
  @Benchmark def weftRun(): Int = c.weftRun()

  /** Pekko 1.4.0: CPU*5 bucket actors, results through promises. */
  @Benchmark def pekkoActors(): Int = c.pekkoActors()

  /** Cats Effect: CPU*5 `Semaphore(1)` buckets, every `applyF` sequenced in one fiber. */
  @Benchmark def catsApplyFSequenced(): Int = c.catsApplyFSequenced()

  /** Cats Effect: CPU*5 `Semaphore(1)` buckets, one fiber per task, all joined. */
  @Benchmark def catsApplyFConcurrent(): Int = c.catsApplyFConcurrent()

  /** A `scala.concurrent.Future` chain per key on the global execution context. */
  @Benchmark def futureChain(): Int = c.futureChain()
