package weft.shootout

import WorkloadSupport.{jmh}
import Contender.*

/** The keyed-executor workloads (seed 001; benchmarks in `weft.bench.keyed`). */
object KeyedWorkloads:

  private val ioNotes =
    "Every contender waits for the busiest key's 1 ms sleeps, so all sit near that floor and " +
      "the differences are small. Like for like: pekkoActorsPerKey and catsApplyFConcurrentPerKey " +
      "(one bucket per key, as weft has one queue per key; the seed's CPU * 5 buckets make keys " +
      "wait for each other). weft's timer thread runs with a 1 µs timer slack, which no peer " +
      "gets (docs/perf/time.md, \"Timer slack\"): weftDefaultSlack is weft with the " +
      "system's slack, and the target is judged on it (the like for like; weft's own row is " +
      "shown). The sequentially-handoff workloads measure what an executor controls."

  private val handoffHarness = "weft.bench.keyed.HandoffLatency"

  private val handoffContenders = Seq(
    weft,
    pekkoActors,
    pekkoActorsPerKey,
    catsApplyFConcurrent,
    catsApplyFConcurrentPerKey,
    futureChain
  )

  /** The hand-off workloads: one harness run, one workload per metric. */
  private val handoff: Seq[Workload] =
    def h(metric: String, title: String, unit: String, higher: Boolean, targets: Seq[Target]) =
      Workload(
        id = s"sequentially-handoff-$metric",
        title = title,
        seed = "seed 001's executors: what a keyed executor controls",
        // One harness run for the six metrics: as long as a quick run on an idle machine took
        // (shootout/README.md, "Quick mode, measured").
        runner =
          Runner.External(Module.Bench, handoffHarness, Some(metric), 70),
        unit = unit,
        higherIsBetter = higher,
        threads = Seq(1),
        threadSetup =
          "weft.bench.keyed.HandoffLatency: one fresh JVM per contender; batches of 1000 empty " +
            "tasks over 100 keys, each batch submitted and awaited from the contender's own kind " +
            "of thread (weft: one Async.blocking on one virtual thread; Pekko, Future chain: one virtual thread; " +
            "cats-effect: one unsafeRunSync per batch); the mean of 6 one-second blocks (quick).",
        contenders = handoffContenders,
        targets = targets,
        notes = "Per-key rows (PerKey) have one bucket per key, like weft; the others the " +
          "seed's CPU * 5 buckets. The interval is over the blocks' values."
      )
    Seq(
      h("first-p50", "submit to start of a key's first task in a batch, median", "µs", false, Nil),
      h("first-p99", "submit to start of a key's first task in a batch, p99", "µs", false, Nil),
      h("gap-p50", "end of a key's task to start of its next, median", "µs", false, Nil),
      h("gap-p99", "end of a key's task to start of its next, p99", "µs", false, Nil),
      h(
        "throughput",
        "batches of 1000 empty tasks over 100 keys per second",
        "batches/s",
        true,
        Seq(Target.AheadOfPeers(1.0))
      ),
      h("cpu", "CPU time of the whole process per batch (every thread)", "µs/batch", false, Nil)
    )

  /** The keyed-executor workloads, in report order. */
  val all: Seq[Workload] =
    def k(
        id: String,
        cls: String,
        title: String,
        factor: Double,
        published: Seq[Published] = Nil,
        forkExtra: Double = 0,
        extra: Seq[Contender] = Nil
    ) = Workload(
      id = id,
      title = title,
      seed = "seed 001, SequentiallyCats vs Akka",
      runner = Runner.Jmh(
        Seq(jmh(s"^weft\\.bench\\.keyed\\.$cls\\.")),
        Mode.Throughput,
        full = Params(5, "10s", 5, "10s", 1),
        forkExtraSeconds = forkExtra
      ),
      unit = "batches/s", // one JMH op is one batch of 1000 tasks (@OperationsPerInvocation)
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup =
        "1 JMH thread; each invocation hands off once to the contender's own kind of thread " +
          "(weft: Async.blocking on a virtual thread; Pekko and the Future chain: a virtual thread; cats-effect: one unsafeRunSync); " +
          "score = batches of 1000 tasks per second",
      // weft's variants first, then the seed's contenders (and per-key peers where `extra` has them)
      contenders = Seq(weft, weftRun) ++ extra ++
        Seq(pekkoActors, catsApplyFSequenced, catsApplyFConcurrent, futureChain),
      published = published,
      publishedSource = if published.isEmpty then ""
      else
        "seed 001: OpenJDK 21.0.2, Akka and Cats Effect, 5x10 s warm-up and measurement, " +
          "other hardware; its ops/s are batches of 1000 per second"
      ,
      targets = Seq(Target.AheadOfPeers(factor)), // 1.5x on batch-1000, ahead elsewhere
      notInQuickContenders = Set(weftRun),
      quickWhy = "weft's variants, informational; the judged weft row and every peer stay"
    )
    Seq(
      k(
        "sequentially-batch-1000",
        "SequentiallyBatch1000",
        "1000 tasks with random keys and empty bodies, awaited",
        1.5,
        Seq(
          Published("Cats applyF (F[T])", 1, 2058.68, "batches/s", Some(catsApplyFSequenced)),
          Published("Akka (Future)", 1, 1434.05, "batches/s", Some(pekkoActors)),
          Published("Cats apply (Future)", 1, 1213.68, "batches/s", None)
        )
      ),
      k("sequentially-hot-keys", "SequentiallyHotKeys", "1000 tasks over 8 keys", 1.0),
      // The slowest contenders' batches of sleeps outlast an iteration: a fork takes longer
      // than its nominal iterations (shootout/README.md, "Quick mode, measured").
      k(
        "sequentially-io",
        "SequentiallyIo",
        "1000 tasks sleeping 1 ms over 100 keys",
        1.0,
        forkExtra = 2.0,
        extra = Seq(
          weftDefaultSlack,
          weftThreadSleep,
          pekkoActorsPerKey,
          catsApplyFConcurrentPerKey
        )
      )
        .copy(
          notes = ioNotes,
          judgedAs = weftDefaultSlack,
          notInQuickContenders = Set(weftRun, weftThreadSleep)
        )
    ) ++ handoff
