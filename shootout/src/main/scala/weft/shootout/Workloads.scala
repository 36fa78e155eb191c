package weft.shootout

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
  val Baseline: String = "weft"

  private def jmh(regex: String): JmhPart = JmhPart(Module.Bench, regex)

  /** Seed 002 publishes no JMH parameters; `--full` uses these. */
  private val seed002Full = Params(5, "2s", 10, "2s", 3)

  private val seed002Source =
    "seed 002: ThinkPad L15, i7-1165G7 @ 2.80GHz, OpenJDK 20, Scala 3.3.0-RC3; the seed's own " +
      "(lock-based, pre-weft) library; iteration counts not published"

  private val amortised =
    "JMH: 1 platform thread. Each invocation hands off once to the contender's own kind of thread " +
      "and runs the loop there, @OperationsPerInvocation amortising that single handoff: weft in " +
      "Async.blocking (a virtual thread); virtualThread, ox and scalaFuture in a virtual thread started " +
      "per invocation; cats-effect and ZIO as one unsafeRun of the whole loop on their own fiber runtime."

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
    published = Seq(
      Published("Thread (Linux)", 1, 292647, "ops/s", Some("virtualThread")),
      Published("Future (Linux)", 1, 86032, "ops/s", Some("weft")),
      Published("Thread (Windows)", 1, 108826, "ops/s", None),
      Published("Future (Windows)", 1, 26402, "ops/s", None)
    ),
    publishedSource = seed002Source,
    targets = Seq(Target.WithinFactorOf("ox", 1.5), Target.WithinFactorOf("virtualThread", 2.0)),
    notes = "The seed's Future was 3.4x the cost of a bare virtual thread on Linux."
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
    published = Seq(
      Published("Async.race (Linux)", 1, 15.590, "ops/s", Some("weft")),
      Published("Await the fastest only (Linux)", 1, 15.597, "ops/s", Some("awaitWinner")),
      Published("Spin lock (Linux)", 1, 15.671, "ops/s", Some("spinLock"))
    ),
    publishedSource = seed002Source + "; its futures slept, so sleeps dominated (~64 ms per race)",
    targets = Seq(Target.WithinFactorOf("awaitWinner", 1.25)),
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
      "combine on the global EC then Await.result; weft enters Async.blocking per op (a virtual " +
      "thread); weftInScope awaits 100000 ops inside one Async.blocking (@OperationsPerInvocation(100000)); " +
      "catsEffect runs each op with unsafeRunSync; ox joins Fork.successful forks directly.",
    published = Seq(
      Published(
        "FutureBenchmark.futureSequenceResult",
        1,
        10805.773,
        "ns/op",
        Some("futureSequence")
      ),
      Published("FutureBenchmark.futureResult", 1, 6762.131, "ns/op", Some("forComprehension")),
      Published("FutureBenchmark.asyncAwaitResult", 1, 1999.398, "ns/op", Some("asyncAwait")),
      Published(
        "FutureBenchmark.futureSequenceResult",
        3,
        8031.084,
        "ns/op",
        Some("futureSequence")
      ),
      Published("FutureBenchmark.futureResult", 3, 5784.833, "ns/op", Some("forComprehension")),
      Published("FutureBenchmark.asyncAwaitResult", 3, 2301.868, "ns/op", Some("asyncAwait")),
      Published(
        "FutureBenchmark.futureSequenceResult",
        10,
        14961.678,
        "ns/op",
        Some("futureSequence")
      ),
      Published("FutureBenchmark.futureResult", 10, 12093.133, "ns/op", Some("forComprehension")),
      Published("FutureBenchmark.asyncAwaitResult", 10, 11215.314, "ns/op", Some("asyncAwait")),
      Published(
        "FutureBenchmark.futureSequenceResult",
        20,
        32180.092,
        "ns/op",
        Some("futureSequence")
      ),
      Published("FutureBenchmark.futureResult", 20, 26390.358, "ns/op", Some("forComprehension")),
      Published("FutureBenchmark.asyncAwaitResult", 20, 24401.617, "ns/op", Some("asyncAwait"))
    ),
    publishedSource =
      "seed 000: Intel Xeon X5687 @ 3.60GHz x 4, 23.5 GiB, Ubuntu 14.04, Java 8u66, " +
        "JMH 1.11, Scala 2.11; -t 1: -wi 20 -i 20 -f 10; -t 3/10/20: -wi 20 -i 10 -f 3",
    targets = Seq(Target.WithinFactorOf("asyncAwait", 1.0)),
    notes = "Futures are created once per trial, already completed; every op awaits all three."
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
    published = Seq(
      Published("Ideal implementation (Linux)", 1, 8691652, "ops/s", Some("ideal")),
      Published("Ideal implementation (Windows)", 1, 6859438, "ops/s", None)
    ),
    publishedSource = seed002Source,
    notes = "Two spinning threads need two free cores: on a busy 2-core machine this collapses."
  )

  private def channel(id: String, cls: String, title: String, published: Seq[Published] = Nil) =
    Workload(
      id = id,
      title = title,
      seed = "seed 002, Performance / channels",
      runner = Runner.Jmh(
        Seq(jmh(s"^weft\\.bench\\.channels\\.$cls\\.")),
        Mode.Throughput,
        full = seed002Full
      ),
      unit = "ops/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = s"see weft.bench.channels.$cls",
      published = published,
      publishedSource = if published.isEmpty then "" else seed002Source
    )

  /** The channel workloads (benchmarks in `weft.bench.channels`, written with the channels). */
  val channels: Seq[Workload] = Seq(
    channel(
      "channel-sync",
      "ChannelSyncBench",
      "one sender, one receiver over a rendezvous channel",
      Seq(Published("SyncChannel (Linux)", 1, 319371, "ops/s", Some("weft")))
    ),
    channel(
      "channel-buffered-16",
      "ChannelBuffered16Bench",
      "one sender, one receiver over a buffered channel of 16",
      Seq(Published("BufferedChannel(1) (Linux), buffer 1 not 16", 1, 308286, "ops/s", None))
    ),
    channel(
      "channel-buffered-100",
      "ChannelBuffered100Bench",
      "one sender, one receiver, buffer 100"
    ),
    channel(
      "channel-unbounded",
      "ChannelUnboundedBench",
      "one sender, one receiver, unbounded channel"
    ),
    channel(
      "channel-chain-1000",
      "ChannelChain1000Bench",
      "a value passed along a chain of 1000 channels"
    ),
    channel("select-2", "Select2Bench", "select over two channels")
  )

  /** The IO workloads (benchmarks in `weft.bench.io`, seed 002's file table and TCP). */
  val io: Seq[Workload] =
    def file(id: String, cls: String, title: String, published: Seq[Published]) = Workload(
      id = id,
      title = title,
      seed = "seed 002, Performance / file IO",
      runner =
        Runner.Jmh(Seq(jmh(s"^weft\\.bench\\.io\\.$cls\\.")), Mode.AverageTime, full = seed002Full),
      unit = "ns/op",
      higherIsBetter = false,
      threads = Seq(1),
      threadSetup =
        s"see weft.bench.io.$cls: every contender loops on one virtual thread; files on /dev/shm when present",
      published = published,
      publishedSource = if published.isEmpty then "" else seed002Source,
      targets = Seq(Target.WithinFactorOf("jdkFiles", if id.endsWith("4b") then 1.3 else 1.1))
    )
    Seq(
      file(
        "file-read-4b",
        "FileRead4bBench",
        "read a 4-byte file as a string",
        Seq(
          Published("PIO.readString (Linux)", 1, 17100, "ns/op", Some("weft")),
          Published("Files.readString (Linux)", 1, 4000, "ns/op", Some("jdkFiles"))
        )
      ),
      file(
        "file-write-4b",
        "FileWrite4bBench",
        "write a 4-byte string to a file",
        Seq(
          Published("PIO.writeString (Linux)", 1, 19000, "ns/op", Some("weft")),
          Published("Files.writeString (Linux)", 1, 6000, "ns/op", Some("jdkFiles"))
        )
      ),
      file(
        "file-read-40mb",
        "FileRead40mbBench",
        "read a 40 MB file as a string",
        Seq(
          Published("PIO.readString (Linux)", 1, 28739000, "ns/op", Some("weft")),
          Published("Files.readString (Linux)", 1, 12522000, "ns/op", Some("jdkFiles"))
        )
      ),
      file(
        "file-write-40mb",
        "FileWrite40mbBench",
        "write a 40 MB string to a file",
        Seq(
          Published("PIO.writeString (Linux)", 1, 17027000, "ns/op", Some("weft")),
          Published("Files.writeString (Linux)", 1, 17118000, "ns/op", Some("jdkFiles"))
        )
      ),
      Workload(
        id = "tcp-echo-rtt",
        title = "TCP echo round trip on loopback",
        seed = "issue 6 (no seed figure)",
        runner = Runner.Jmh(
          Seq(jmh("^weft\\.bench\\.io\\.TcpEchoRttBench\\.")),
          Mode.AverageTime,
          full = seed002Full
        ),
        unit = "ns/op",
        higherIsBetter = false,
        threads = Seq(1),
        threadSetup =
          "see weft.bench.io.TcpEchoRttBench: client loop on one virtual thread, echo server on virtual threads"
      )
    )

  /** The time workloads (benchmarks in `weft.bench.time`). */
  val time: Seq[Workload] =
    def t(id: String, regex: String, title: String) = Workload(
      id = id,
      title = title,
      seed = "issue 4 (no seed figure)",
      runner = Runner.Jmh(Seq(jmh(regex)), Mode.Throughput, full = seed002Full),
      unit = "ops/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = "see weft.bench.time: every contender's loop on its own kind of thread"
    )
    Seq(
      t(
        "timeout-fast",
        "^weft\\.bench\\.time\\.TimeoutFast\\.(weft|ox|catsEffect|zio|noTimeout)$",
        "withTimeout around a body that finishes at once"
      ),
      t(
        "semaphore-uncontended",
        "^weft\\.bench\\.time\\.SemaphorePermits\\.uncontended",
        "acquire and release a free permit"
      ),
      t(
        "semaphore-contended",
        "^weft\\.bench\\.time\\.SemaphorePermits\\.contended",
        "8 fibers, 2 permits"
      ),
      t("timer-arm-cancel", "^weft\\.bench\\.time\\.TimerArmCancel\\.", "arm a timer and cancel it")
    )

  /** The keyed-executor workloads (seed 001; benchmarks in `weft.bench.keyed`). */
  val keyed: Seq[Workload] =
    def k(id: String, cls: String, title: String, published: Seq[Published] = Nil) = Workload(
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
      targets = Seq(Target.WithinFactorOf("pekkoActors", 1.0 / 1.5))
    )
    Seq(
      k(
        "sequentially-batch-1000",
        "SequentiallyBatch1000",
        "1000 tasks with random keys and empty bodies, awaited",
        Seq(
          Published("Cats applyF (F[T])", 1, 2058.68, "ops/s", Some("catsApplyFSequenced")),
          Published("Akka (Future)", 1, 1434.05, "ops/s", Some("pekkoActors")),
          Published("Cats apply (Future)", 1, 1213.68, "ops/s", None)
        )
      ),
      k("sequentially-hot-keys", "SequentiallyHotKeys", "1000 tasks over 8 keys"),
      k("sequentially-io", "SequentiallyIo", "1000 tasks sleeping 1 ms over 100 keys")
    )

  private def memory(id: String, million: Boolean) = Workload(
    id = id,
    title = if million then "heap per pending weft future, 1,000,000 of them in a 1 GiB heap"
    else "heap retained per pending operation, 100,000 of them",
    seed = "seed 003 (ask vs tell: jmap -histo:live of 100,000 pending operations)",
    runner = Runner.External(
      Module.Bench,
      if million then "weft.bench.memory.MemoryShootout --million"
      else "weft.bench.memory.MemoryShootout",
      if million then Seq("weft")
      else
        Seq(
          "weft",
          "weft-tell",
          "virtual-thread",
          "scala-future",
          "pekko-tell",
          "cats-effect-fiber",
          "zio-fiber",
          "ox-fork"
        )
    ),
    unit = "bytes/op",
    higherIsBetter = false,
    threads = Seq(1),
    threadSetup =
      "one fresh JVM per contender (ParallelGC, fixed heap); warm-up cycles, full GC, " +
        "baseline; N operations made pending; full GC; (used - baseline) / N. Histograms: " +
        "the top five classes per contender, and the seed's own histogram, at the end of the report.",
    published = if million then Nil
    else
      Seq(
        Published("Future (seed's histogram rows)", 1, 192.0, "bytes/op", Some("scala-future")),
        Published("tell (seed's histogram rows)", 1, 48.0, "bytes/op", Some("pekko-tell"))
      )
    ,
    publishedSource = if million then ""
    else "seed 003: JDK 8, Akka, Scala 2.11, other hardware; only the rows of ~100k instances",
    targets = if million then Nil else Seq(Target.WithinFactorOf("virtual-thread", 1.2))
  )

  /** The memory workloads (seed 003; an external harness in `weft.bench.memory`). */
  val memoryWorkloads: Seq[Workload] =
    Seq(memory("memory-pending-100k", million = false), memory("memory-pending-1m", million = true))

  /** Every workload, in report order. */
  val all: Seq[Workload] =
    Seq(futureSpawnAwait, race3, compose3, handoffIdeal) ++ channels ++ io ++ time ++ keyed ++
      memoryWorkloads

  /** The workload with this id. */
  def byId(id: String): Option[Workload] = all.find(_.id == id)
