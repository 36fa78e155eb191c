package weft.shootout

import WorkloadSupport.*
import Contender.*

/**
 * The workload registry: adding a workload is one entry in `all`.
 *
 * Contenders are the JMH benchmark method names (`FutureSpawnAwait.ox` is contender `ox`); the
 * contender named [[Workloads.Baseline]] is weft, the denominator of every ratio. Benchmarks live
 * in `bench/src/main/scala/weft/bench/` (one class per workload) and, for Scala 2.13-only peers, in
 * `bench-scala2/src/main/scala/weft/bench/scala2/`. A workload whose benchmarks do not exist yet is
 * skipped with a note.
 */
object Workloads:

  /** The contender every ratio is computed against. */
  val Baseline: String = Contender.weft.id

  /** `future-spawn-await`: create a runnable future and await it (seed 002, Future). */
  val futureSpawnAwait: Workload = Workload(
    id = "future-spawn-await",
    title = "spawn a runnable future and await it",
    seed = "seed 002, Performance / Future",
    runner = Runner.Jmh(
      Seq(jmh("^weft\\.bench\\.FutureSpawnAwait\\.")),
      Mode.Throughput,
      full = seed002Full
    ),
    unit = "ops/s",
    higherIsBetter = true,
    threads = Seq(1),
    threadSetup = amortised + " 1000 spawn+await per invocation.",
    contenders = Seq(weft, virtualThread, virtualThreadJoin, ox, catsEffect, zio, scalaFuture),
    published = Seq(
      Published("Thread (Linux)", 1, 292647, "ops/s", Some(virtualThread)),
      Published("Future (Linux)", 1, 86032, "ops/s", Some(weft)),
      Published("Thread (Windows)", 1, 108826, "ops/s", None),
      Published("Future (Windows)", 1, 26402, "ops/s", None)
    ),
    publishedSource = seed002Source,
    // The seed's two targets, then the later ones: at least ox and cats-effect, 0.9x ZIO.
    targets = Seq(
      Target.WithinFactorOf(ox, 1.5),
      Target.WithinFactorOf(virtualThread, 2.0),
      Target.WithinFactorOf(ox, 1.0),
      Target.WithinFactorOf(catsEffect, 1.0),
      Target.WithinFactorOf(zio, 1.0 / 0.9)
    ),
    shownOnly = Set(virtualThreadJoin),
    notInQuickContenders = Set(virtualThreadJoin),
    quickWhy = "the older floor (termination plus a latch), kept for comparison with earlier " +
      "reports",
    notes = "The seed's Future was 3.4x the cost of a bare virtual thread on Linux. The floor, " +
      "virtualThread, hands the value back through a volatile field and a park, waiting for the " +
      "result only, as weft's await does; virtualThreadJoin waits with Thread.join (termination " +
      "too), the earlier floor. A weft future is a virtual thread and cannot beat that " +
      "floor; a ZIO fork is a fiber queued on the running worker, not a thread, so the 0.9x-ZIO " +
      "target is met only where virtualThread's row is itself above 0.9x zio's."
  )

  /** `race-3`: race three sources of which one completes. */
  val race3: Workload = Workload(
    id = "race-3",
    title = "race three futures; one completes at once, two block until cancelled",
    seed = "seed 002, Performance / Async.race (without the sleeps)",
    runner = Runner.Jmh(Seq(jmh("^weft\\.bench\\.Race3\\.")), Mode.Throughput, full = seed002Full),
    unit = "ops/s",
    higherIsBetter = true,
    threads = Seq(1),
    threadSetup = amortised + " 100 races per invocation; every race starts 3 tasks and cancels 2.",
    contenders = Seq(weft, awaitWinner, ox, catsEffect, spinLock),
    published = Seq(
      Published("Async.race (Linux)", 1, 15.590, "ops/s", Some(weft)),
      Published("Await the fastest only (Linux)", 1, 15.597, "ops/s", Some(awaitWinner)),
      Published("Spin lock (Linux)", 1, 15.671, "ops/s", Some(spinLock))
    ),
    publishedSource = seed002Source + "; its futures slept, so sleeps dominated (~64 ms per race)",
    targets = Seq(Target.WithinFactorOf(awaitWinner, 1.25)),
    notes =
      "awaitWinner starts the same three tasks but awaits the winner directly: the difference " +
        "is the cost of racing. spinLock: three virtual threads, the winner sets an AtomicBoolean the " +
        "caller spins on, losers interrupted and joined."
  )

  private val compose3Full = Params(20, "1s", 10, "1s", 3)

  /** `compose-3`: three completed futures summed by a blocking caller (seed 000). */
  val compose3: Workload = Workload(
    id = "compose-3",
    title = "sum three already-completed futures, awaited by a blocking caller",
    seed = "seed 000, computation-expressions-demo (FutureBenchmark)",
    runner = Runner.Jmh(
      Seq(
        jmh("^weft\\.bench\\.Compose3\\."),
        JmhPart(Module.BenchScala2, "^weft\\.bench\\.scala2\\.Compose3\\.")
      ),
      Mode.AverageTime,
      full = compose3Full,
      fullByThreads = Map(1 -> Params(20, "1s", 20, "1s", 10))
    ),
    unit = "ns/op",
    higherIsBetter = false,
    threads = Seq(1, 3, 10, 20),
    threadSetup = "JMH: 1, 3, 10, 20 platform threads, each blocking per op as in the seed. " +
      "futureSequence, forComprehension (Scala 2.13) and asyncAwait (scala-async 1.0.1, -Xasync) " +
      "combine on the global EC then Await.result; weft enters Async.blocking per op (its body " +
      "runs on the caller); weftOnVirtualThread enters it on a new virtual thread per op; " +
      "weftInScope awaits 100000 ops inside one Async.blocking (@OperationsPerInvocation(100000)); " +
      "catsEffect runs each op with unsafeRunSync; ox enters a supervised scope per op (ox runs " +
      "its body in a fork, a new virtual thread) and joins Fork.successful forks there; oxNoScope " +
      "joins them on the caller without a scope.",
    contenders = Seq(
      weft,
      weftOnVirtualThread,
      weftInScope,
      catsEffect,
      ox,
      oxNoScope,
      futureSequence,
      forComprehension,
      asyncAwait
    ),
    published = Seq(
      Published(
        "FutureBenchmark.futureSequenceResult",
        1,
        10805.773,
        "ns/op",
        Some(futureSequence)
      ),
      Published("FutureBenchmark.futureResult", 1, 6762.131, "ns/op", Some(forComprehension)),
      Published("FutureBenchmark.asyncAwaitResult", 1, 1999.398, "ns/op", Some(asyncAwait)),
      Published(
        "FutureBenchmark.futureSequenceResult",
        3,
        8031.084,
        "ns/op",
        Some(futureSequence)
      ),
      Published("FutureBenchmark.futureResult", 3, 5784.833, "ns/op", Some(forComprehension)),
      Published("FutureBenchmark.asyncAwaitResult", 3, 2301.868, "ns/op", Some(asyncAwait)),
      Published(
        "FutureBenchmark.futureSequenceResult",
        10,
        14961.678,
        "ns/op",
        Some(futureSequence)
      ),
      Published("FutureBenchmark.futureResult", 10, 12093.133, "ns/op", Some(forComprehension)),
      Published("FutureBenchmark.asyncAwaitResult", 10, 11215.314, "ns/op", Some(asyncAwait)),
      Published(
        "FutureBenchmark.futureSequenceResult",
        20,
        32180.092,
        "ns/op",
        Some(futureSequence)
      ),
      Published("FutureBenchmark.futureResult", 20, 26390.358, "ns/op", Some(forComprehension)),
      Published("FutureBenchmark.asyncAwaitResult", 20, 24401.617, "ns/op", Some(asyncAwait))
    ),
    publishedSource =
      "seed 000: Intel Xeon X5687 @ 3.60GHz x 4, 23.5 GiB, Ubuntu 14.04, Java 8u66, " +
        "JMH 1.11, Scala 2.11; -t 1: -wi 20 -i 20 -f 10; -t 3/10/20: -wi 20 -i 10 -f 3",
    targets = Seq(Target.WithinFactorOf(asyncAwait, 1.0)),
    shownOnly = Set(oxNoScope),
    notInQuickContenders = Set(weftInScope, oxNoScope),
    quickWhy = "informational (the awaits without a scope per op), not like for like; 8 of its " +
      "32 benchmarks",
    notes = "Futures are created once per trial, already completed; every op awaits all three. " +
      "Like for like: each library's way for a blocking caller to combine three futures and get " +
      "the sum; weft and ox enter a scope per op. weft's lead comes from where its scope runs: " +
      "Async.blocking runs its body on the calling thread and awaiting a completed future does " +
      "not park, so a weft op involves no other thread, while scala-async and the Future " +
      "combinators run on the global EC and the caller parks in Await.result, ox's supervised " +
      "starts a virtual thread for its body, and cats-effect starts a fiber. weftOnVirtualThread " +
      "shows weft paying that hop too (near asyncAwait); weftInScope and oxNoScope show the " +
      "awaits alone."
  )

  /** `handoff-ideal`: the seed's two-virtual-thread volatile handoff, the floor for channels. */
  val handoffIdeal: Workload = Workload(
    id = "handoff-ideal",
    title = "ideal one-slot handoff between two spinning virtual threads (no library)",
    seed = "seed 002, Performance / comparison with ideal implementation",
    runner =
      Runner.Jmh(Seq(jmh("^weft\\.bench\\.HandoffIdeal\\.")), Mode.Throughput, full = seed002Full),
    unit = "ops/s",
    higherIsBetter = true,
    threads = Seq(1),
    threadSetup =
      "JMH: 1 platform thread starts a sender and a receiver virtual thread per invocation " +
        "and joins them; they spin on a volatile flag for 100000 values (@OperationsPerInvocation).",
    contenders = Seq(ideal),
    published = Seq(
      Published("Ideal implementation (Linux)", 1, 8691652, "ops/s", Some(ideal)),
      Published("Ideal implementation (Windows)", 1, 6859438, "ops/s", None)
    ),
    publishedSource = seed002Source,
    notes = "Two spinning threads need two free cores: on a busy 2-core machine this collapses."
  )

  /** The channel workloads (see [[ChannelWorkloads]]). */
  val channels: Seq[Workload] = ChannelWorkloads.all

  /** The IO workloads (see [[IoWorkloads]]). */
  val io: Seq[Workload] = IoWorkloads.all

  /** The time workloads (see [[TimeWorkloads]]). */
  val time: Seq[Workload] = TimeWorkloads.all

  /** The resilience workloads (see [[ResilienceWorkloads]]). */
  val resilience: Seq[Workload] = ResilienceWorkloads.all

  /** The keyed-executor workloads (see [[KeyedWorkloads]]). */
  val keyed: Seq[Workload] = KeyedWorkloads.all

  /** The single-flight workloads (see [[SingleFlightWorkloads]]). */
  val singleFlight: Seq[Workload] = SingleFlightWorkloads.all

  /** The memory workloads (see [[MemoryWorkloads]]). */
  val memoryWorkloads: Seq[Workload] = MemoryWorkloads.all

  /** The memcached client workloads (see [[MemcachedWorkloads]]). */
  val memcached: Seq[Workload] = MemcachedWorkloads.all

  /** The parallel-collection workloads (see [[ParWorkloads]]). */
  val par: Seq[Workload] = ParWorkloads.all

  /** The stream workloads (see [[FlowWorkloads]]). */
  val flow: Seq[Workload] = FlowWorkloads.all

  /** Every workload, in report order. */
  val all: Seq[Workload] =
    Seq(futureSpawnAwait, race3, compose3, handoffIdeal) ++ channels ++ io ++ time ++ par ++ flow ++
      resilience ++ keyed ++ singleFlight ++ memoryWorkloads ++ memcached

  /** The workload with this id. */
  def byId(id: String): Option[Workload] = all.find(_.id == id)
