package weft.shootout

import WorkloadSupport.{jmh, seed002Full}
import Contender.*

/** The time workloads (timers, timeouts, semaphores; benchmarks in `weft.bench.time`). */
object TimeWorkloads:

  /**
   * The semaphore target: weft's fair semaphore does at least 0.8x the work of the
   * JDK's fair `Semaphore` on the same kind of thread, that is costs at most 1.25x per op.
   * `VerdictSuite` checks the notes say the same limit.
   */
  val semaphoreTarget: Target = Target.WithinFactorOf(jdk, 1.25)

  /** The time workloads, in report order. */
  val all: Seq[Workload] =
    // `selectOnly`: the bench class has diagnostic methods beyond the contenders, so the JMH
    // regex names the contenders' methods instead of taking the whole class.
    def t(
        id: String,
        cls: String,
        title: String,
        contenders: Seq[Contender],
        targets: Seq[Target] = Nil,
        notes: String = "",
        shownOnly: Set[Contender] = Set.empty,
        selectOnly: Boolean = false
    ) = Workload(
      id = id,
      title = title,
      seed = "weft's own (no seed figure)",
      runner = Runner.Jmh(
        Seq(jmh(
          s"^weft\\.bench\\.time\\.$cls\\." +
            (if selectOnly then contenders.map(_.id).mkString("(", "|", ")$") else "")
        )),
        Mode.Throughput,
        full = seed002Full
      ),
      contenders = contenders,
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
        "cats-effect and ZIO as one effect on their runtimes. The target: at " +
        "least 0.8x the JDK's fair semaphore's throughput, that is at most 1.25x its cost per op."
    Seq(
      t(
        "timeout-fast",
        "TimeoutFast",
        "withTimeout around a body that finishes at once",
        Seq(weft, ox, catsEffect, zio, noTimeout),
        Seq(Target.AheadOfPeers(1.0)),
        "weft runs the body on the caller under a timer on the shared scheduler (no fiber per " +
          "call, ADR 0025); ox races the body against a sleeping fork; cats-effect and ZIO " +
          "time out an effect on their runtimes. The target: weft ahead of every peer.",
        shownOnly = Set(noTimeout),
        selectOnly = true
      ),
      t(
        "semaphore-uncontended",
        "SemaphoreUncontended",
        "acquire and release a free permit",
        Seq(weft, jdk, catsEffect, zio),
        Seq(semaphoreTarget),
        semaphoreNotes
      ),
      t(
        "semaphore-contended",
        "SemaphoreContended",
        "8 fibers, 2 permits",
        Seq(weft, jdk, catsEffect, zio),
        Seq(semaphoreTarget),
        semaphoreNotes
      ),
      t(
        "timer-arm-cancel",
        "TimerArmCancel",
        "arm a timer and cancel it",
        Seq(weft, jdkScheduledExecutor),
        notes =
          "Like for like: `jdkScheduledExecutor` is a one-thread `ScheduledThreadPoolExecutor` " +
            "with `setRemoveOnCancelPolicy(true)`, the policy weft's own scheduler sets. With the " +
            "JDK's default policy cancelled tasks stay queued until due; at this rate they filled " +
            "the 1 GiB heap within a quick run (OutOfMemoryError), so that setup is not measured."
      )
    )
