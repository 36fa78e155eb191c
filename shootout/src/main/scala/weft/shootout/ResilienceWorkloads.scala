package weft.shootout

import WorkloadSupport.{jmh, seed002Full}
import Contender.*

/** The resilience workloads (benchmarks in `weft.bench.resilience`). */
object ResilienceWorkloads:

  /** The rate-limiter workloads, in report order. */
  val all: Seq[Workload] =
    def r(id: String, cls: String, title: String) = Workload(
      id = id,
      title = title,
      seed = "weft's own (no seed figure)",
      runner = Runner.Jmh(
        Seq(jmh(s"^weft\\.bench\\.resilience\\.$cls\\.")),
        Mode.Throughput,
        full = seed002Full
      ),
      unit = "ops/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = "every contender's loops on virtual threads (see weft.bench.resilience)",
      contenders = Seq(weft, ox, resilience4j),
      targets = Seq(Target.AheadOfPeers(1.0)),
      notes = "All fixed-window limiters: weft `RateLimiter.fixedWindow` + `acquire()`, ox " +
        "`RateLimiter.fixedWindowWithStartTime` + `runBlocking` (a semaphore refilled by a " +
        "background fork), resilience4j `AtomicRateLimiter` + `acquirePermission()`. The limit " +
        "(100M per second) is never reached: the cost of a permit is measured, not the rate. " +
        "Target: weft at least 1.0x the best peer."
    )
    Seq(
      r("rate-limiter", "RateLimiterUncontended", "take a permit of a rate limiter, one fiber"),
      r("rate-limiter-contended", "RateLimiterContended", "8 fibers take permits of one limiter")
    )
