package weft.shootout

import WorkloadSupport.{jmh, seed002Full}
import Contender.*

/** The parallel-collection workloads (benchmarks in `weft.bench.par`). */
object ParWorkloads:

  /** The parallel-collection workloads, in report order. */
  val all: Seq[Workload] = Seq(
    Workload(
      id = "par-map-1000",
      title = "map 1000 small tasks, at most 8 at once, results in order",
      seed = "weft's own (no seed figure)",
      runner = Runner.Jmh(
        Seq(jmh("^weft\\.bench\\.par\\.ParMap1000\\.")),
        Mode.Throughput,
        full = seed002Full
      ),
      unit = "maps/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = "weft.bench.par.ParMap1000: every contender called from the JMH thread as " +
        "its users write it; tasks on virtual threads (weft, ox) or on the effect runtime's " +
        "fibers (cats-effect, ZIO)",
      contenders = Seq(weft, ox, catsEffect, zio),
      targets = Seq(Target.AheadOfPeers(1.0)),
      notes = "One op maps 1000 tasks of `Blackhole.consumeCPU(100)` each: weft `mapPar(8)`, " +
        "ox `mapPar(8)`, cats-effect `parTraverseN(8)`, ZIO `foreachPar` with " +
        "`withParallelism(8)`."
    )
  )
