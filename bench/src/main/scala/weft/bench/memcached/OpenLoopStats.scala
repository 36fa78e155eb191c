package weft.bench.memcached

/**
 * One block of the open-loop harness: one contender's window at one offered load, on its own
 * server and client (see [[OpenLoopRun]]). Latencies in µs.
 *
 * @param completed
 *   the window rule ([[OpenLoopStats.windowCompleted]]) held
 * @param cpuNanos
 *   the server's CPU time over the window, or -1 when unknown
 */
final case class OpenLoopBlock(
    contender: String,
    rate: Int,
    index: Int,
    completed: Boolean,
    sent: Long,
    inWindow: Long,
    p50: Double,
    p99: Double,
    p999: Double,
    max: Double,
    cpuNanos: Long
)

/**
 * The pure rules of the open-loop harness: when a window completed, when a load counts as
 * sustained, and which load the scores are taken at. `OpenLoopStatsSuite` checks each.
 *
 * ==Why blocks==
 * One window gives one p99 and no spread: in one window's p99 the load, a pause of the
 * other processes on the machine and the client's own tail cannot be told apart. So each
 * contender runs several independent blocks per load, and a percentile's score is the geometric
 * mean of its blocks' values, its 95% interval (computed by the shootout from the block values,
 * as Student's t on their logarithms) their spread. Latencies spread by factors, not by
 * amounts (blocks of one load ranged from 0.2 to 3.6 ms): on their arithmetic mean the
 * interval's low end went below zero, which bounds no ratio.
 */
object OpenLoopStats:

  /**
   * The latency ceiling of "sustained", in µs: a load whose p99 (the median over its blocks)
   * is above 10 ms is not sustained, even if every reply came back within the window. A client
   * that keeps up only by queueing requests for tens of milliseconds does not serve that load
   * in any sense a user of a cache would accept, and comparing tails at such a load compares
   * queues, not clients.
   */
  val CeilingMicros: Double = 10_000.0

  /** The share of a window's requests that must complete within it. */
  val InWindowShare: Double = 0.95

  /**
   * Whether a window completed: not abandoned for backlog, every request answered by the
   * drain deadline, no call failed, and at least [[InWindowShare]] of the `count` requests
   * completed before the window's end.
   */
  def windowCompleted(
      abandoned: Boolean,
      drained: Boolean,
      failedCalls: Long,
      inWindow: Long,
      count: Long
  ): Boolean =
    !abandoned && drained && failedCalls == 0 && inWindow >= InWindowShare * count

  /** The blocks of one contender at one load. */
  final case class Load(contender: String, rate: Int, blocks: Seq[OpenLoopBlock]):
    /**
     * The geometric mean of `f` over the blocks (NaN without blocks); a value at or below
     * zero (an empty window's percentile) counts as 1 ns.
     */
    def mean(f: OpenLoopBlock => Double): Double =
      if blocks.isEmpty then Double.NaN
      else math.exp(blocks.map(b => math.log(math.max(f(b), 1e-3))).sum / blocks.size)

    /** The load's p99: the geometric mean of its blocks' p99s (the score). */
    def p99: Double = mean(_.p99)

    /** The median of the blocks' p99s (the upper middle one for an even count). */
    def medianP99: Double =
      if blocks.isEmpty then Double.NaN else blocks.map(_.p99).sorted.apply(blocks.size / 2)

    /** Whether more than half of the blocks' windows completed. */
    def mostlyCompleted: Boolean = blocks.count(_.completed) * 2 > blocks.size

  /** Groups blocks by contender and load, in the order they came. */
  def loads(blocks: Seq[OpenLoopBlock]): Seq[Load] =
    blocks.groupBy(b => (b.contender, b.rate)).toSeq
      .sortBy((k, bs) => blocks.indexOf(bs.head))
      .map((k, bs) => Load(k._1, k._2, bs))

  /**
   * A load is sustained when more than half of its blocks' windows completed and the median
   * of its blocks' p99s is at most `ceilingMicros`. The majority and the median, not every
   * block and the mean, so that one block hit by a stall of the shared machine (seen: one
   * block of five with a p99 of 0.6 s while the other four stayed under 2 ms) widens the
   * score's interval instead of ending the ladder; a client that cannot keep up misses in
   * most blocks. The score stays the (geometric) mean over every block.
   */
  def sustained(load: Load, ceilingMicros: Double = CeilingMicros): Boolean =
    load.mostlyCompleted && load.medianP99 <= ceilingMicros

  /**
   * The contenders of `alive` that sustained none of their loads, each with why: they get no
   * score (their rows FAILED) and do not hold the judged load down for the others. Otherwise
   * one client stalled at the lowest load (on the shared machine, one block's 1.5 s pause was
   * enough) left every row of the workload without a score. A smoke run drops none.
   */
  def sustainedNone(
      loads: Seq[Load],
      alive: Seq[String],
      countAnyway: Boolean = false,
      ceilingMicros: Double = CeilingMicros
  ): Map[String, String] =
    if countAnyway then Map.empty
    else
      alive.filterNot(c => loads.exists(l => l.contender == c && sustained(l, ceilingMicros)))
        .map { c =>
          val first = loads.find(_.contender == c)
          c -> first.fold("no load measured")(l =>
            s"sustained none of the loads: at ${l.rate} gets/s ${l.blocks.count(_.completed)} " +
              s"of ${l.blocks.size} windows completed, median p99 " +
              java.lang.String.format(
                java.util.Locale.ROOT,
                "%.1f ms (ceiling %.0f ms)",
                l.medianP99 / 1e3,
                ceilingMicros / 1e3
              )
          )
        }.toMap

  /**
   * The load the scores are taken at: the highest of `rates` that every contender of `alive`
   * sustained; with `countAnyway` (a smoke run, which measures nothing) the highest load every
   * one of them has blocks at, sustained or not. None without such a load.
   */
  def judgedLoad(
      loads: Seq[Load],
      alive: Seq[String],
      rates: Seq[Int],
      countAnyway: Boolean = false,
      ceilingMicros: Double = CeilingMicros
  ): Option[Int] =
    rates.filter(r =>
      alive.nonEmpty && alive.forall(c =>
        loads.exists(l =>
          l.contender == c && l.rate == r && (countAnyway || sustained(l, ceilingMicros))
        )
      )
    ).maxOption
