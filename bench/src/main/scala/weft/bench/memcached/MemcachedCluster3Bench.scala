package weft.bench.memcached

import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.LongAdder
import org.openjdk.jmh.annotations.*
import org.openjdk.jmh.infra.{BenchmarkParams, IterationParams}
import org.openjdk.jmh.runner.IterationType
import MemcachedMultiGet50Bench.{KeysPerOp, Stored, ThreadKeys}

/**
 * Workload `memcached-cluster-3`: three fresh servers per fork; weft, spymemcached and
 * xmemcached each place keys with Ketama under the same node names, `127.0.0.1:<port>` (see
 * [[McContender.open]]). `key0` .. `key4999` are stored through the contender; one op = one
 * multiget of 50 distinct keys (the per-thread subsets of `memcached-multiget-50`), which each
 * client splits over the three servers. Verified: every value read back; the three servers'
 * summed `stats` deltas (cmd_get and get_hits = 50 x ops, cmd_set = the 5000 preloaded); and
 * at teardown every key is on exactly the server [[KetamaReference]] names for it and on no
 * other, so the three clients agree on placement, key by key.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
class MemcachedCluster3Bench:

  private var servers: Seq[BenchServer] = Nil
  private var contender: McContender = null
  private var benchmark = ""
  private var threads = 0
  private val ops = LongAdder()
  private var before: Seq[Map[String, Long]] = Nil
  private var iterationCpu = 0L
  private var iterationOps = 0L
  private var measuredCpu = 0L
  private var measuredOps = 0L
  private var iterationClientCpu = 0L
  private var measuredClientCpu = 0L

  private def cpu(): Long =
    val each = servers.map(_.cpuNanos())
    if each.exists(_ < 0) then -1L else each.sum

  @Setup(Level.Trial)
  def start(params: BenchmarkParams): Unit =
    benchmark = params.getBenchmark
    threads = params.getThreads
    servers = Seq.fill(3)(BenchServer.start())
    val name = benchmark.substring(benchmark.lastIndexOf('.') + 1)
    contender = McContender.open(name, servers.map(_.address))
    McContender.preload(contender, Stored)
    before = servers.map(_.stats())

  @Setup(Level.Iteration)
  def markIteration(): Unit =
    iterationCpu = cpu()
    iterationClientCpu = ClientCpu.nanos()
    iterationOps = ops.sum()

  @TearDown(Level.Iteration)
  def endIteration(params: IterationParams): Unit =
    if params.getType == IterationType.MEASUREMENT then
      measuredCpu += cpu() - iterationCpu
      measuredClientCpu += ClientCpu.nanos() - iterationClientCpu
      measuredOps += ops.sum() - iterationOps

  @TearDown(Level.Trial)
  def checkAndStop(): Unit =
    try
      contender.close()
      val n = ops.sum()
      val after = servers.map(_.stats())
      def delta(s: String) =
        after.zip(before).map((a, b) => a.getOrElse(s, 0L) - b.getOrElse(s, 0L)).sum
      val expected = Seq("cmd_set" -> 0L, "cmd_get" -> n * KeysPerOp, "get_hits" -> n * KeysPerOp)
      val wrong = expected.filter((s, e) => delta(s) != e)
      val ring = KetamaReference(servers.map(_.address))
      val keys = (0 until Stored).map(i => s"key$i")
      val misplaced = servers.map { s =>
        val held = s.holding(keys)
        val owned = keys.filter(k => ring.nodeOf(k) == s.address).toSet
        s.address -> ((held -- owned).size + (owned -- held).size)
      }.filter(_._2 > 0)
      val name = benchmark.substring(benchmark.lastIndexOf('.') + 1)
      val entry = ServerDetails.Entry(
        name,
        threads,
        n,
        expected.map((s, _) => s -> delta(s)),
        wrong.isEmpty && misplaced.isEmpty,
        measuredOps,
        if iterationCpu < 0 then -1L else measuredCpu,
        if iterationClientCpu < 0 then -1L else measuredClientCpu
      )
      ServerDetails.record("memcached-cluster-3", entry)
      println(
        s"[memcached] $benchmark: $n ops verified; summed stats deltas " +
          entry.deltas.map((s, d) => s"$s=$d").mkString(", ") +
          s"; keys misplaced: ${misplaced.map(_._2).sum}; ${ServerDetails.cpuText(entry)}"
      )
      if wrong.nonEmpty || misplaced.nonEmpty then
        throw IllegalStateException(
          s"$benchmark: " + wrong.map((s, e) => s"$s ${delta(s)} (expected $e)").mkString(", ") +
            misplaced.map((a, k) => s"; $k keys misplaced against Ketama on $a").mkString
        )
    finally servers.foreach(_.stop())

  private def op(t: ThreadKeys): Unit =
    contender.multiGet(t.next())
    ops.increment()

  @Benchmark def weft(t: ThreadKeys): Unit = op(t)
  @Benchmark def spyAscii(t: ThreadKeys): Unit = op(t)
  @Benchmark def spyBinary(t: ThreadKeys): Unit = op(t)
  @Benchmark def xmemAscii(t: ThreadKeys): Unit = op(t)
  @Benchmark def xmemBinary(t: ThreadKeys): Unit = op(t)
