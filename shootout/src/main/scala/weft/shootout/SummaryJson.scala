package weft.shootout

/**
 * `summary.json`: one object per contender, workload and thread count.
 *
 * {{{
 * {"workload": "compose-3", "contender": "weft", "score": 1234.5, "error": 12.3,
 *  "unit": "ns/op", "higherIsBetter": false, "failed": false, "ratioToWeft": 1.0,
 *  "params": {"threads": 3, "module": "bench", "benchmark": "weft.bench.Compose3.weft",
 *             "mode": "avgt", "forks": 1, "warmupIterations": 3, "warmupTime": "1s",
 *             "iterations": 3, "time": "1s"}}
 * }}}
 *
 * `score`, `error` and `ratioToWeft` are `null` when unknown; a failed benchmark has
 * `"failed": true`, `"score": null` and a `"failure"` text.
 *
 * Added without changing the fields above: `"interval"` (`{"low", "high", "level", "pointOnly"}`,
 * the confidence interval the verdicts use, or `null`) on every row, and `"verdicts"` on weft's
 * rows of a workload with targets: one object per target with `target`, `verdict` (`MET`,
 * `MISSED`, `INCONCLUSIVE`, `NOT CHECKED`), `detail`, and when checked `reference`, `speedup`,
 * `speedupLow`, `speedupHigh` (weft's work per unit of time over the reference's) and `limit`
 * (the speedup the target asks for). A row with figures measured beside its score carries each
 * as a number field ([[Extra]]): `"serverCpuMicrosPerOp"` on the memcached workloads, the
 * server's CPU time per op in microseconds.
 */
object SummaryJson:

  private def opt(d: Option[Double]): ujson.Value =
    d.filterNot(_.isNaN).fold(ujson.Null)(ujson.Num(_))

  private def interval(i: Option[Interval]): ujson.Value = i.fold(ujson.Null)(i =>
    ujson.Obj(
      "low" -> opt(Some(i.low)),
      "high" -> opt(Some(i.high)),
      "level" -> i.level,
      "pointOnly" -> i.pointOnly
    )
  )

  /** One verdict as JSON. */
  def verdict(t: Target, unit: String, v: Verdict): ujson.Obj =
    val o = ujson.Obj(
      "target" -> Targets.describe(t, unit),
      "verdict" -> v.label,
      "detail" -> v.detail
    )
    v.comparison.foreach { c =>
      o("reference") = c.reference
      o("speedup") = opt(Some(c.speedup.point))
      o("speedupLow") = opt(Some(c.speedup.low).filterNot(_.isInfinite))
      o("speedupHigh") = opt(Some(c.speedup.high).filterNot(_.isInfinite))
      o("limit") = opt(Some(c.limit))
    }
    o

  /** One row as JSON. */
  def row(r: Row): ujson.Obj =
    val o = ujson.Obj(
      "workload" -> r.workload,
      "contender" -> r.contender,
      "score" -> opt(r.score),
      "error" -> opt(r.error),
      "unit" -> r.unit,
      "higherIsBetter" -> r.higherIsBetter,
      "failed" -> r.failed,
      "ratioToWeft" -> opt(r.ratioToWeft),
      "params" -> ujson.Obj.from(r.params),
      "interval" -> interval(r.interval)
    )
    r.failure.foreach(f => o("failure") = f)
    r.extras.foreach(e => o(e.key) = opt(Some(e.value)))
    o

  /** All rows as the text of `summary.json`; weft's rows carry the verdicts of `workloads`. */
  def render(rows: Seq[Row], workloads: Seq[Workload] = Nil): String =
    val checks = workloads.flatMap(w =>
      Targets.check(w, rows).map((t, threads, v) => (w.id, threads) -> verdict(t, w.unit, v))
    ).groupMap(_._1)(_._2)
    val out = rows.map { r =>
      val o = row(r)
      if r.contender == Workloads.Baseline then
        checks.get((r.workload, r.threads)).foreach(vs => o("verdicts") = ujson.Arr.from(vs))
      o
    }
    ujson.write(ujson.Arr.from(out), indent = 2)
