package weft.bench.keyed

import weft.bench.Interleaved

/**
 * `sequentially-batch-1000` for weft, Pekko and the Future chain, in turns of a fifth of a second
 * each, second after second: the keyed counterpart of [[weft.bench.Interleaved]]. On a host
 * whose speed changes for tens of seconds at a time, JMH's one-contender-after-another runs can
 * put weft and its peers in different phases; here each second's ratio compares contenders that
 * ran within the same second. The workloads are the JMH benchmark methods, called directly (10
 * batches of 1000 tasks per call).
 *
 * Run: `./sbtw "bench/runMain weft.bench.keyed.InterleavedKeyed 30"` (seconds; default 20). The
 * first five seconds are warm-up. Prints one line per second, then the median ratios.
 */
object InterleavedKeyed:

  /** Runs the comparison for the number of seconds given as the first argument. */
  def main(args: Array[String]): Unit =
    val seconds = args.headOption.map(_.toInt).getOrElse(20)
    val warmup = 5
    val bench = SequentiallyBatch1000()
    bench.setup()
    try
      val batches = 10
      val contenders = Seq[(String, () => Unit)](
        "weft" -> (() => bench.weft()),
        "pekko" -> (() => bench.pekkoActors()),
        "future chain" -> (() => bench.futureChain())
      )
      val ratios = collection.mutable.ArrayBuffer[(Double, Double)]()
      for sec <- 0 until seconds do
        val rates = contenders.map((_, call) => Interleaved.perSecond(batches, call))
        val (vsPekko, vsChain) = (rates(0) / rates(1), rates(0) / rates(2))
        val cells = contenders.zip(rates).map((c, r) => f"${c._1} $r%6.0f").mkString("  ")
        val mark = if sec < warmup then " (warm-up)" else ""
        println(
          f"second $sec%3d  $cells batches/s;  weft/pekko $vsPekko%.2f, weft/chain $vsChain%.2f$mark"
        )
        if sec >= warmup then ratios += ((vsPekko, vsChain))
      if ratios.nonEmpty then
        println(
          f"median over ${ratios.size} seconds: weft/pekko ${Interleaved.median(ratios.map(_._1))}%.2f, " +
            f"weft/chain ${Interleaved.median(ratios.map(_._2))}%.2f"
        )
    finally bench.teardown()
