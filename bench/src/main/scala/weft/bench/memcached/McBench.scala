package weft.bench.memcached

import java.util.concurrent.atomic.LongAdder
import org.openjdk.jmh.annotations.*
import org.openjdk.jmh.infra.{BenchmarkParams, IterationParams}
import org.openjdk.jmh.runner.IterationType

/**
 * What both memcached workloads share: per fork, a fresh [[BenchServer]] and the contender
 * named by the benchmark method; a count of the ops that completed (and verified their
 * values); and at teardown the check that the server did the work, from its `stats` deltas:
 * `cmd_set`, `cmd_get` and `get_hits` must each equal ops x the requests one op promises. A
 * contender whose client skipped or merged requests away fails its benchmark (JMH then reports
 * no score, and the shootout marks it FAILED). The server's CPU time and the benchmark JVM's
 * ([[ClientCpu]]), each over the measured iterations (read at the same points: before and after
 * each measured iteration) and divided by their ops, are printed to the fork's log and recorded
 * ([[ServerDetails]]).
 */
@State(Scope.Benchmark)
abstract class McBench:

  /** The workload id, naming the server-side table (see [[ServerDetails]]). */
  protected def workloadId: String

  /** Server-side `cmd_set` per op. */
  protected def setsPerOp: Long

  /** Server-side `cmd_get` (keys read) per op, each a hit. */
  protected def getsPerOp: Long

  /** Stores what the workload reads before anything is counted (awaited). */
  protected def preload(c: McContender): Unit

  protected var server: BenchServer = null
  protected var contender: McContender = null
  private var benchmark = ""
  private var threads = 0

  /** Ops that completed and verified, over the whole trial (warm-up included). */
  protected val ops = LongAdder()

  private var before: Map[String, Long] = Map.empty
  private var iterationCpu = 0L
  private var iterationOps = 0L
  private var measuredCpu = 0L
  private var measuredOps = 0L
  private var iterationClientCpu = 0L
  private var measuredClientCpu = 0L

  @Setup(Level.Trial)
  def startServer(params: BenchmarkParams): Unit =
    benchmark = params.getBenchmark
    threads = params.getThreads
    server = BenchServer.start()
    contender =
      McContender.open(benchmark.substring(benchmark.lastIndexOf('.') + 1), server.address)
    preload(contender)
    before = server.stats()

  @Setup(Level.Iteration)
  def markIteration(): Unit =
    iterationCpu = server.cpuNanos()
    iterationClientCpu = ClientCpu.nanos()
    iterationOps = ops.sum()

  @TearDown(Level.Iteration)
  def endIteration(params: IterationParams): Unit =
    if params.getType == IterationType.MEASUREMENT then
      measuredCpu += server.cpuNanos() - iterationCpu
      measuredClientCpu += ClientCpu.nanos() - iterationClientCpu
      measuredOps += ops.sum() - iterationOps

  /**
   * The weft contender, for `weftInScope`: [[McBench.InScopeOps]] ops inside one
   * `Async.blocking` per invocation (`@OperationsPerInvocation`), where `weft` enters one per op.
   */
  protected def weftClient: WeftContender = contender.asInstanceOf[WeftContender]

  @TearDown(Level.Trial)
  def checkAndStop(): Unit =
    try
      contender.close()
      val after = server.stats()
      val n = ops.sum()
      def delta(name: String) = after.getOrElse(name, 0L) - before.getOrElse(name, 0L)
      val wrong = Seq("cmd_set" -> setsPerOp, "cmd_get" -> getsPerOp, "get_hits" -> getsPerOp)
        .filter((name, per) => delta(name) != n * per)
      val deltas = Seq("cmd_set", "cmd_get", "get_hits").map(s => s -> delta(s))
      val contenderName = benchmark.substring(benchmark.lastIndexOf('.') + 1)
      val entry = ServerDetails.Entry(
        contenderName,
        threads,
        n,
        deltas,
        wrong.isEmpty,
        measuredOps,
        if iterationCpu < 0 then -1L else measuredCpu,
        if iterationClientCpu < 0 then -1L else measuredClientCpu
      )
      ServerDetails.record(workloadId, entry)
      println(
        s"[memcached] $benchmark: $n ops verified; server stats deltas " +
          deltas.map((s, d) => s"$s=$d").mkString(", ") +
          s"; ${ServerDetails.cpuText(entry)} (flags: ${BenchServer.Flags.mkString(" ")})"
      )
      if wrong.nonEmpty then
        throw IllegalStateException(
          s"$benchmark skipped work: after $n ops the server counted " +
            wrong.map((name, per) => s"$name ${delta(name)} (expected ${n * per})").mkString(", ")
        )
    finally server.stop()

/** Settings of the memcached benchmarks. */
object McBench:
  /** Ops per invocation of `weftInScope` (one `Async.blocking` around them). */
  final val InScopeOps = 100
