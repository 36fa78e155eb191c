package weft.shootout

import scala.collection.immutable.ListMap

/**
 * One line of `summary.json` and of a workload's table in `REPORT.md`.
 *
 * @param score
 *   None when the benchmark failed
 * @param params
 *   how it was measured: `threads`, `module`, `benchmark`, `mode`, `forks`, `warmupIterations`,
 *   `warmupTime`, `iterations`, `time` (JMH runners)
 * @param failure
 *   why it failed (JMH error, no result, timeout), when it did
 * @param ratioToWeft
 *   this score divided by weft's at the same thread count, when both exist
 * @param interval
 *   the 95% confidence interval of the score (see [[Interval]]); the verdicts compare these
 * @param extras
 *   figures measured beside the score (the memcached server's and client's CPU per op, see
 *   [[ServerCpu]] and [[ClientCpu]]): a column each in the workload's table, a field each in
 *   `summary.json`
 */
final case class Row(
    workload: String,
    contender: String,
    threads: Int,
    score: Option[Double],
    error: Option[Double],
    unit: String,
    higherIsBetter: Boolean,
    params: ListMap[String, ujson.Value],
    failure: Option[String] = None,
    ratioToWeft: Option[Double] = None,
    interval: Option[Interval] = None,
    extras: Seq[Extra] = Nil
):
  /** True when there is no score. */
  def failed: Boolean = score.isEmpty

/**
 * A figure measured beside a row's score.
 *
 * @param key
 *   its field name in `summary.json` (`serverCpuMicrosPerOp`, `clientCpuMicrosPerOp`)
 * @param label
 *   its column heading in `REPORT.md`
 */
final case class Extra(key: String, label: String, value: Double)

/** Turning JMH results into rows. */
object Rows:

  /** JMH parameters as the `params` of a row. */
  def jmhParams(
      threads: Int,
      module: Module,
      benchmark: String,
      mode: Mode,
      p: Params
  ): ListMap[String, ujson.Value] =
    ListMap(
      "threads" -> ujson.Num(threads),
      "module" -> ujson.Str(module.id),
      "benchmark" -> ujson.Str(benchmark),
      "mode" -> ujson.Str(mode.jmhName),
      "forks" -> ujson.Num(p.forks),
      "warmupIterations" -> ujson.Num(p.warmupIterations),
      "warmupTime" -> ujson.Str(p.warmupTime),
      "iterations" -> ujson.Num(p.iterations),
      "time" -> ujson.Str(p.time)
    )

  /** One row per expected benchmark: its result, or FAILED with `whyMissing` when JMH gave none. */
  def fromJmh(
      workload: Workload,
      module: Module,
      mode: Mode,
      params: Params,
      threads: Int,
      expected: Seq[String],
      records: Seq[JmhRecord],
      whyMissing: => String
  ): Seq[Row] =
    expected.map { benchmark =>
      val base = Row(
        workload = workload.id,
        contender = JmhJson.contenderOf(benchmark),
        threads = threads,
        score = None,
        error = None,
        unit = workload.unit,
        higherIsBetter = workload.higherIsBetter,
        params = jmhParams(threads, module, benchmark, mode, params)
      )
      records.find(r => r.benchmark == benchmark && r.threads == threads) match
        case Some(r) if !r.score.isNaN =>
          // JMH reports in the mode's unit; the row carries the workload's name for it.
          if r.unit != mode.unit then
            base.copy(failure = Some(s"JMH reported unit ${r.unit}, expected ${mode.unit}"))
          else
            // Every iteration of every fork when JMH wrote them; its 99.9% error otherwise
            // (results recovered from the log).
            val interval = Interval.ofSamples(r.samples).filter(_ => r.samples.size > 1)
              .getOrElse(Interval.ofError(r.score, r.scoreError, 0.999))
            base.copy(score = Some(r.score), error = r.scoreError, interval = Some(interval))
        case Some(_) => base.copy(failure = Some("JMH reported no score (NaN)"))
        case None    => base.copy(failure = Some(whyMissing))
    }

  /** Fills `ratioToWeft` on every row: score ÷ weft's score in the same workload and thread count. */
  def withRatios(rows: Seq[Row]): Seq[Row] =
    val weft = rows.collect {
      case r if r.contender == Workloads.Baseline && r.score.exists(_ > 0) =>
        (r.workload, r.threads) -> r.score.get
    }.toMap
    rows.map { r =>
      val ratio = for s <- r.score; w <- weft.get((r.workload, r.threads)) yield s / w
      r.copy(ratioToWeft = ratio)
    }
