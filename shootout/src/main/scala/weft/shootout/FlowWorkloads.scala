package weft.shootout

import WorkloadSupport.{jmh, seed002Full}
import Contender.*

/**
 * The stream workloads (benchmarks in `weft.bench.flow`): weft's `Flow` against ox's `Flow`, fs2,
 * ZIO Streams and Pekko Streams, each written as its users write it, every source reading the
 * same in-memory `Range` through its library's from-an-`Iterable` source.
 */
object FlowWorkloads:

  /**
   * One op is a whole run of a stream over up to a million elements, from a few milliseconds to
   * several seconds depending on the library (docs/perf/flow.md): one-second iterations hold
   * several ops for most contenders, where quick mode's default of 400 ms would hold at most
   * one for many of them.
   */
  private val quickFlow: Params = Params(3, "500ms", 4, "1s", 2)

  private val threadSetup =
    "JMH: 1 platform thread; each op starts there and waits for the run: weft " +
      "(Async.blocking) and ox on a virtual thread started per op, their stages' fibers on " +
      "virtual threads; fs2 and ZIO as one unsafeRun of the whole run on their runtimes' " +
      "fibers; Pekko materialised on an actor system made once per trial, the JMH thread " +
      "awaiting the run's future"

  private def runner(benchClass: String): Runner.Jmh =
    Runner.Jmh(
      Seq(jmh(s"^weft\\.bench\\.flow\\.$benchClass\\.")),
      Mode.Throughput,
      quick = quickFlow,
      full = seed002Full
    )

  private val peers = Seq(weft, ox, fs2, zioStreams, pekkoStreams)

  /** The stream workloads, in report order. */
  val all: Seq[Workload] = Seq(
    Workload(
      id = "flow-map-filter-1m",
      title = "1M integers through map, filter and a fold: the fused path",
      seed = "weft's own (no seed figure)",
      runner = runner("MapFilter"),
      unit = "runs/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup =
        "weft.bench.flow.MapFilter: " + threadSetup + "; the iterator floor on the JMH thread itself",
      contenders = peers :+ iterator,
      targets = Seq(Target.AheadOfPeers(1.0), Target.WithinFactorOf(iterator, 2.0)),
      shownOnly = Set(iterator),
      notes = "One op: `map(_ * 2)`, `filter(_ % 3 == 0)`, a fold of the sum, over `0 until " +
        "1000000`; every op checks the sum. No stage has an asynchronous boundary: weft and ox " +
        "push each element through the fused stages, fs2 and ZIO pass chunks, Pekko runs its " +
        "fused graph on one actor. `iterator` is the same pipeline as a plain Iterator: not a " +
        "peer, the floor weft must stay within 2x of."
    ),
    Workload(
      id = "flow-mappar-8",
      title = "10,000 small tasks through a parallel map of 8, results in order",
      seed = "weft's own (no seed figure)",
      runner = runner("MapPar8"),
      unit = "runs/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = "weft.bench.flow.MapPar8: " + threadSetup,
      contenders = peers,
      targets = Seq(Target.AheadOfPeers(1.0)),
      notes = "One op maps 10,000 elements by `Blackhole.consumeCPU(100)` at most 8 at once, " +
        "in input order, folded by an order-sensitive hash that every op checks: weft and ox " +
        "`mapPar(8)`, fs2 `parEvalMap(8)`, ZIO `mapZIOPar(8)`, Pekko `mapAsync(8)` with " +
        "`Future`s on its dispatcher."
    ),
    Workload(
      id = "flow-merge-4",
      title = "four sources of 250,000 integers merged and summed",
      seed = "weft's own (no seed figure)",
      runner = runner("Merge4"),
      unit = "runs/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = "weft.bench.flow.Merge4: " + threadSetup,
      contenders = peers,
      targets = Seq(Target.AheadOfPeers(1.0)),
      notes = "One op merges four sources (1M elements in all) and sums them; every op checks " +
        "the sum. weft `Flow.merge` of the four, ox `merge` chained (it merges two at a time), " +
        "fs2 `parJoinUnbounded`, ZIO `ZStream.mergeAllUnbounded`, Pekko `Source.combine` with " +
        "`Merge`. fs2 and ZIO hand whole chunks between fibers, weft and ox single elements."
    ),
    Workload(
      id = "flow-grouped-within",
      title = "1M integers batched by 100 or 1 ms, whichever first",
      seed = "weft's own (no seed figure)",
      runner = runner("GroupedWithin"),
      unit = "runs/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = "weft.bench.flow.GroupedWithin: " + threadSetup,
      contenders = peers,
      targets = Seq(Target.AheadOfPeers(1.0)),
      notes = "One op batches 1M elements by `groupedWithin(100, 1 ms)` (fs2 `groupWithin`) and " +
        "sums the batches' sizes, which every op checks is 1M. The source never pauses, so " +
        "nearly every batch fills before its timer: the cost measured is the timer's on the " +
        "fast path and the boundary the operator needs."
    )
  )
