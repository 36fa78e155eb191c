package weft.shootout

import WorkloadSupport.{jmh}

/** The keyed-executor workloads (seed 001; benchmarks in `weft.bench.keyed`). */
object KeyedWorkloads:

  /** The keyed-executor workloads, in report order. */
  val all: Seq[Workload] =
    def k(
        id: String,
        cls: String,
        title: String,
        factor: Double,
        published: Seq[Published] = Nil
    ) = Workload(
      id = id,
      title = title,
      seed = "seed 001, SequentiallyCats vs Akka",
      runner = Runner.Jmh(
        Seq(jmh(s"^weft\\.bench\\.keyed\\.$cls\\.")),
        Mode.Throughput,
        full = Params(5, "10s", 5, "10s", 1)
      ),
      unit = "ops/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup =
        "1 JMH thread; each invocation hands off once to the contender's own kind of thread " +
          "(weft: Async.blocking; Pekko and the Future chain: a virtual thread; cats-effect: one unsafeRunSync); " +
          "score = batches of 1000 tasks per second",
      published = published,
      publishedSource = if published.isEmpty then ""
      else
        "seed 001: OpenJDK 21.0.2, Akka and Cats Effect, 5x10 s warm-up and measurement, other hardware"
      ,
      targets = Seq(Target.AheadOfPeers(factor)) // issue 7: 1.5x on batch-1000, ahead elsewhere
    )
    Seq(
      k(
        "sequentially-batch-1000",
        "SequentiallyBatch1000",
        "1000 tasks with random keys and empty bodies, awaited",
        1.5,
        Seq(
          Published("Cats applyF (F[T])", 1, 2058.68, "ops/s", Some("catsApplyFSequenced")),
          Published("Akka (Future)", 1, 1434.05, "ops/s", Some("pekkoActors")),
          Published("Cats apply (Future)", 1, 1213.68, "ops/s", None)
        )
      ),
      k("sequentially-hot-keys", "SequentiallyHotKeys", "1000 tasks over 8 keys", 1.0),
      k("sequentially-io", "SequentiallyIo", "1000 tasks sleeping 1 ms over 100 keys", 1.0)
    )
