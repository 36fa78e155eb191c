package weft.shootout

import WorkloadSupport.{jmh, seed002Full}

/** The time workloads (issue 4; benchmarks in `weft.bench.time`). */
object TimeWorkloads:

  /** The time workloads, in report order. */
  val all: Seq[Workload] =
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
