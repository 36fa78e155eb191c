package weft.bench.keyed

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*

/**
 * Workload `sequentially-io`: 1000 tasks per batch over 100 keys, each sleeping 1 ms.
 *
 * Each contender sleeps its own way: weft with `weft.sleep` (cancellable, on weft's timer),
 * cats-effect with `IO.sleep`, the Future chain with `blocking(Thread.sleep(1))` (a platform
 * thread of the global pool), Pekko with `Thread.sleep` inside the bucket's actor (as seed 001
 * ran blocking tasks). `weftThreadSleep` shows weft with the JDK's virtual-thread sleep.
 *
 * Like for like: `pekkoActorsPerKey` and `catsApplyFConcurrentPerKey` give the peers one bucket
 * per key (100), as weft has one queue per key; the seed's CPU * 5 buckets make keys wait for
 * each other. weft's timer thread runs with a 1 µs timer slack, which no peer gets
 * (docs/perf/time.md, "Timer slack"): `weftDefaultSlack` runs with the system's
 * (`weft.timer.slackNanos=off`).
 *
 * The score is batches per second, every batch awaited. See [[SequentiallyContenders]] for the
 * contenders and the threads they run on; `weft` is `submit` + await (the fair, concurrent
 * shape), `weftRun` the direct-style `run` loop (the shape of `catsApplyFSequenced`).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(1)
class SequentiallyIo:
  private val c = SequentiallyContenders(keySpace = 100, sleepy = true, batches = 1)

  /** Starts the peers' runtimes. */
  @Setup(Level.Trial) def setup(): Unit = c.setup()

  /** Stops the peers' runtimes. */
  @TearDown(Level.Trial) def teardown(): Unit = c.teardown()

  /** weft: `submit` every task of a batch (each task calls `weft.sleep(1)`), then await each. */
  @Benchmark def weft(): Int = c.weftSubmit()

  /** weft without its timer slack setting: the system's default slack, as every peer has. */
  @Benchmark
  @Fork(jvmArgsPrepend = Array("-Dweft.timer.slackNanos=off"))
  def weftDefaultSlack(): Int = c.weftSubmit()

  /** weft with tasks that call `Thread.sleep(1)` (the JDK's virtual-thread sleep) instead. */
  @Benchmark def weftThreadSleep(): Int = c.weftSubmit(threadSleep = true)

  /** weft, direct style: `run` each task in turn from one fiber. */
  @Benchmark def weftRun(): Int = c.weftRun()

  /** Pekko 1.4.0: CPU*5 bucket actors, results through promises. */
  @Benchmark def pekkoActors(): Int = c.pekkoActors()

  /** Cats Effect: CPU*5 `Semaphore(1)` buckets, every `applyF` sequenced in one fiber. */
  @Benchmark def catsApplyFSequenced(): Int = c.catsApplyFSequenced()

  /** Cats Effect: CPU*5 `Semaphore(1)` buckets, one fiber per task, all joined. */
  @Benchmark def catsApplyFConcurrent(): Int = c.catsApplyFConcurrent()

  /** Pekko with one bucket actor per key (100). */
  @Benchmark def pekkoActorsPerKey(): Int = c.pekkoActors(perKey = true)

  /** Cats Effect with one `Semaphore(1)` per key (100), one fiber per task. */
  @Benchmark def catsApplyFConcurrentPerKey(): Int = c.catsApplyFConcurrent(perKey = true)

  /** A `scala.concurrent.Future` chain per key on the global execution context. */
  @Benchmark def futureChain(): Int = c.futureChain()
