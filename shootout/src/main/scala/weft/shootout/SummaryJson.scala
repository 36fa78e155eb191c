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
 */
object SummaryJson:

  private def opt(d: Option[Double]): ujson.Value =
    d.filterNot(_.isNaN).fold(ujson.Null)(ujson.Num(_))

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
      "params" -> ujson.Obj.from(r.params)
    )
    r.failure.foreach(f => o("failure") = f)
    o

  /** All rows as the text of `summary.json`. */
  def render(rows: Seq[Row]): String = ujson.write(ujson.Arr.from(rows.map(row)), indent = 2)
