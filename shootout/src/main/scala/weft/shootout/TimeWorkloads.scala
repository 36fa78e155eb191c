package weft.shootout

import WorkloadSupport.{jmh, seed002Full}

/** The time workloads (issue 4; benchmarks in `weft.bench.time`). */
object TimeWorkloads:

  /**
   * The semaphore target, issue 25's: weft's fair semaphore does at least 0.8x the work of the
   * JDK's fair `Semaphore` on the same kind of thread, that is costs at most 1.25x per op.
   * `VerdictSuite` checks the notes say the same limit.
   */
  val semaphoreTarget: Target = Target.WithinFactorOf("jdk", 1.25)

  /** The time workloads, in report order. */
  val all: Seq[Workload] =
    def t(
        id: String,
        regex: String,
        title: String,
        targets: Seq[Target] = Nil,
        notes: String = "",
        shownOnly: Set[String] = Set.empty
    ) = Workload(
      id = id,
      title = title,
      seed = "issue 4 (no seed figure)",
      runner = Runner.Jmh(Seq(jmh(regex)), Mode.Throughput, full = seed002Full),
      unit = "ops/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = "see weft.bench.time: every contender's loop on its own kind of thread",
      targets = targets,
      notes = notes,
      shownOnly = shownOnly
    )
    val semaphoreNotes =
      "All semaphores fair. weft and the JDK's `Semaphore(n, true)` on virtual threads; " +
        "cats-effect and ZIO as one effect on their runtimes. The target is issue 25's: at " +
        "least 0.8x the JDK's fair semaphore's throughput, that is at most 1.25x its cost per op."
    Seq(
      t(
        "timeout-fast",
        "^weft\\.bench\\.time\\.TimeoutFast\\.(weft|ox|catsEffect|zio|noTimeout)$",
        "withTimeout around a body that finishes at once",
        shownOnly = Set("noTimeout")
      ).copy(notInQuick = true), // no target: full runs only, to keep quick mode short

      t(
        "semaphore-uncontended",
        "^weft\\.bench\\.time\\.SemaphoreUncontended\\.",
        "acquire and release a free permit",
        Seq(semaphoreTarget),
        semaphoreNotes
      ),
      t(
        "semaphore-contended",
        "^weft\\.bench\\.time\\.SemaphoreContended\\.",
        "8 fibers, 2 permits",
        Seq(semaphoreTarget),
        semaphoreNotes
      ),
      t(
        "timer-arm-cancel",
        "^weft\\.bench\\.time\\.TimerArmCancel\\.",
        "arm a timer and cancel it",
        notes =
          "Like for like: `jdkScheduledExecutor` is a one-thread `ScheduledThreadPoolExecutor` " +
            "with `setRemoveOnCancelPolicy(true)`, the policy weft's own scheduler sets. With the " +
            "JDK's default policy cancelled tasks stay queued until due; at this rate they filled " +
            "the 1 GiB heap within a quick run (OutOfMemoryError), so that setup is not measured."
      )
    )
