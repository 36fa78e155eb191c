package weft.shootout

import WorkloadSupport.{jmh, seed002Full}
import Contender.*

/** The single-flight workloads (benchmarks in `weft.bench.keyed`, `SingleFlight*`). */
object SingleFlightWorkloads:

  private val setup =
    "1 JMH thread; each op is a round of callers, each caller on its own new virtual thread " +
      "(weft's enters Async.blocking on it), every one getting its key's value through the " +
      "contender; a key's computation waits until every caller of the round has called, so " +
      "the callers of a key coalesce; score = calls per second"

  private val notes =
    "Every round is a miss of fresh keys, and nothing is kept between rounds: weft's " +
      "SingleFlight keeps nothing, the map removes an entry as its future completes, and " +
      "Caffeine's AsyncCache (executor: a virtual thread per task) is told to forget the " +
      "round's keys at its end. Every computation runs on a virtual thread of its own (weft's " +
      "fiber, Caffeine's executor, the map's supplyAsync on a virtual-thread executor). " +
      "concurrentHashMapInline, shown and not compared, computes on the caller that installed " +
      "the future: no thread per computation, and a caller cannot leave without taking the " +
      "computation from the others; the cheapest shape. Each caller's thread start is in every row."

  /** The single-flight workloads, in report order. */
  val all: Seq[Workload] =
    def w(id: String, cls: String, title: String) = Workload(
      id = id,
      title = title,
      seed = "weft's own (no seed figure)",
      runner = Runner.Jmh(
        Seq(jmh(s"^weft\\.bench\\.keyed\\.$cls\\.")),
        Mode.Throughput,
        full = seed002Full
      ),
      unit = "calls/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = setup,
      contenders = Seq(weft, caffeine, concurrentHashMap, concurrentHashMapInline),
      targets = Seq(Target.AheadOfPeers(1.0)),
      shownOnly = Set(concurrentHashMapInline),
      notes = notes
    )
    Seq(
      w("single-flight-50", "SingleFlightOneKey50", "50 concurrent callers of one key"),
      w("single-flight-1000", "SingleFlightOneKey1000", "1000 concurrent callers of one key"),
      w("single-flight-keys-1000", "SingleFlightKeys1000", "1000 callers, each of its own key")
    )
