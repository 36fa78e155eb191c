package weft.shootout

/**
 * One benchmark result as JMH writes it with `-rf json`.
 *
 * @param benchmark
 *   the full method name, `weft.bench.Compose3.weft`
 * @param scoreError
 *   the 99.9% half-interval; None when JMH had too few samples (it writes `"NaN"`)
 * @param raw
 *   the untouched JSON object, for `results.json`
 * @param samples
 *   every measured iteration's score, all forks (JMH's `rawData`); empty when unknown
 */
final case class JmhRecord(
    benchmark: String,
    mode: String,
    threads: Int,
    forks: Int,
    warmupIterations: Int,
    warmupTime: String,
    measurementIterations: Int,
    measurementTime: String,
    score: Double,
    scoreError: Option[Double],
    unit: String,
    jmhVersion: String,
    jdkVersion: String,
    vmName: String,
    vmVersion: String,
    raw: ujson.Value,
    samples: Seq[Double] = Nil
):
  /** The contender: the benchmark method's simple name. */
  def contender: String = JmhJson.contenderOf(benchmark)

/** Reading JMH's JSON result format. */
object JmhJson:

  /** The simple method name of a full benchmark name. */
  def contenderOf(benchmark: String): String = benchmark.substring(benchmark.lastIndexOf('.') + 1)

  /** Parses a JMH JSON result file's text (an array of results; empty text means none). */
  def parse(text: String): Seq[JmhRecord] =
    if text.trim.isEmpty then Nil
    else ujson.read(text).arr.toSeq.map(record)

  private def number(v: ujson.Value): Option[Double] = v match
    case ujson.Num(n) if !n.isNaN && !n.isInfinite => Some(n)
    case ujson.Str(s) => s.toDoubleOption.filter(d => !d.isNaN && !d.isInfinite)
    case _            => None

  private def str(o: ujson.Obj, key: String): String =
    o.value.get(key).map(_.strOpt.getOrElse("")).getOrElse("")

  private def int(o: ujson.Obj, key: String): Int =
    o.value.get(key).flatMap(number).map(_.toInt).getOrElse(0)

  private def record(v: ujson.Value): JmhRecord =
    val o = v.obj
    val metric = o("primaryMetric").obj
    JmhRecord(
      benchmark = str(o, "benchmark"),
      mode = str(o, "mode"),
      threads = int(o, "threads"),
      forks = int(o, "forks"),
      warmupIterations = int(o, "warmupIterations"),
      warmupTime = str(o, "warmupTime"),
      measurementIterations = int(o, "measurementIterations"),
      measurementTime = str(o, "measurementTime"),
      score = number(metric("score")).getOrElse(Double.NaN),
      scoreError = metric.value.get("scoreError").flatMap(number),
      unit = str(metric, "scoreUnit"),
      jmhVersion = str(o, "jmhVersion"),
      jdkVersion = str(o, "jdkVersion"),
      vmName = str(o, "vmName"),
      vmVersion = str(o, "vmVersion"),
      raw = v,
      samples = metric.value.get("rawData").toSeq.flatMap(_.arrOpt.toSeq.flatten)
        .flatMap(_.arrOpt.toSeq.flatten).flatMap(number)
    )
