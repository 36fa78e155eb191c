package weft.bench

import weft.bench.channels.{ChannelBenchSupport, ChannelSyncBench, Select2Bench}

/**
 * The rendezvous workloads (channel-sync, select-2: weft and jox) and the ideal handoff, run
 * in turns of a fifth of a second each, second after second: a check of the JMH ratios on a
 * noisy host. The workloads are the JMH benchmark methods themselves, called directly.
 *
 * JMH measures one contender after another. On a shared virtual machine the cost of moving a
 * cache line between the two cores can change for tens of seconds at a time: on the 2-core
 * machine of the channel figures the ideal handoff ran at about 14 M values/s, then at 2.9 M
 * for 20 s, then at 14 M again, and weft's and jox's rendezvous channels slowed with it (7.6 M
 * -> 2.2 M and 4.8 M -> 1.6 M). A benchmark that falls into such a phase while its peer does
 * not gives a ratio off by up to 4x. Here every contender runs in every second, so a slow phase
 * shows in all of them (and in the ideal column) and each second's ratios stand.
 *
 * Run: `./sbtw "bench/runMain weft.bench.Interleaved 30"` (seconds; default 20). The first
 * three seconds are warm-up. Prints one line per second, then the median of each ratio.
 */
object Interleaved:
  private final case class Contender(name: String, valuesPerCall: Int, call: () => Unit)

  /** Runs the comparison for the number of seconds given as the first argument. */
  def main(args: Array[String]): Unit =
    val seconds = args.headOption.map(_.toInt).getOrElse(20)
    val warmup = 3
    val sync = ChannelSyncBench()
    val select = Select2Bench()
    val ideal = HandoffIdeal()
    val n = ChannelBenchSupport.N
    val contenders = Seq(
      Contender("sync weft", n, () => sync.weft()),
      Contender("sync jox", n, () => sync.jox()),
      Contender("select-2 weft", n, () => select.weft()),
      Contender("select-2 jox", n, () => select.jox()),
      Contender("ideal", HandoffIdeal.N.toInt, () => ideal.ideal())
    )
    val syncRatios, selectRatios = collection.mutable.ArrayBuffer[Double]()
    for sec <- 0 until seconds do
      val m = contenders.map(c => millionsPerSecond(c))
      val (syncRatio, selectRatio) = (m(0) / m(1), m(2) / m(3))
      val cells = contenders.zip(m).map((c, v) => f"${c.name} $v%5.2f").mkString("  ")
      val mark = if sec < warmup then " (warm-up)" else ""
      println(
        f"second $sec%3d  $cells  M/s;  weft/jox: sync $syncRatio%.2f, select-2 $selectRatio%.2f$mark"
      )
      if sec >= warmup then
        syncRatios += syncRatio
        selectRatios += selectRatio
    if syncRatios.nonEmpty then
      println(
        f"median weft/jox over ${syncRatios.size} seconds: sync ${median(syncRatios)}%.2f, " +
          f"select-2 ${median(selectRatios)}%.2f"
      )

  /** Calls `c` repeatedly for a fifth of a second; millions of values per second. */
  private def millionsPerSecond(c: Contender): Double =
    perSecond(c.valuesPerCall, c.call) / 1e6

  /** Calls `call` repeatedly for a fifth of a second (one turn); `perCall` units per second. */
  private[bench] def perSecond(perCall: Int, call: () => Unit): Double =
    val start = System.nanoTime()
    var units = 0L
    while System.nanoTime() - start < 200_000_000L do
      call()
      units += perCall
    units / ((System.nanoTime() - start) / 1e9)

  /** The median of `xs` (the upper one of an even count). */
  private[bench] def median(xs: collection.Seq[Double]): Double =
    val s = xs.sorted
    s(s.size / 2)
