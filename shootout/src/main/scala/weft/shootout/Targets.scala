package weft.shootout

/** The three answers a target can get, and the one when it cannot be checked. */
enum Outcome(val label: String):
  /** The whole interval of the comparison is on the good side of the limit. */
  case Met extends Outcome("MET")

  /** The whole interval is on the bad side of the limit: the report says so. */
  case Missed extends Outcome("MISSED")

  /** The interval straddles the limit, or a score has no interval: this run cannot tell. */
  case Inconclusive extends Outcome("INCONCLUSIVE")

  /** A contender failed or is absent. */
  case NotChecked extends Outcome("NOT CHECKED")

/**
 * weft's speed relative to another contender (or to a goal): how many times the work per unit of
 * time weft does, `2.0` when weft does twice the work (half the cost per op). `low` and `high`
 * bound it from the two contenders' intervals (worst and best case of each), so the interval is
 * at least as wide as either score's.
 *
 * @param pointOnly
 *   one of the two scores had no interval
 */
final case class Speedup(point: Double, low: Double, high: Double, pointOnly: Boolean)

/**
 * One checked comparison: weft's [[Speedup]] over `reference` and the speedup the target asks
 * for (`limit`: 0.5 for "weft costs at most 2x", 1.5 for "1.5x the work of every peer").
 */
final case class Comparison(reference: String, speedup: Speedup, limit: Double):
  /**
   * The outcome: MET when even the low end reaches the limit, MISSED when even the high end does
   * not. Without an interval (one sample) nothing is decided: a single open-loop p99 moved from
   * MET to MISSED between quick runs (`VerdictSuite`, "a score without an interval decides
   * nothing").
   */
  def outcome: Outcome =
    if speedup.pointOnly then Outcome.Inconclusive
    else if speedup.low >= limit then Outcome.Met
    else if speedup.high < limit then Outcome.Missed
    else Outcome.Inconclusive

/** The outcome of checking one [[Target]] at one thread count, with the comparison it rests on. */
final case class Verdict(outcome: Outcome, detail: String, comparison: Option[Comparison] = None):
  /** `MET`, `MISSED`, `INCONCLUSIVE` or `NOT CHECKED`. */
  def label: String = outcome.label

/** Checking a workload's targets against its rows. */
object Targets:

  /** A target in words. */
  def describe(t: Target, unit: String): String = t match
    case Target.WithinFactorOf(ref, f) =>
      s"weft costs at most ${Format.factor(f)} what `${ref.id}` costs per op"
    case Target.AtLeast(score) => s"weft reaches at least ${Format.number(score)} $unit"
    case Target.AtMostOfBestPeer(f) =>
      s"weft's latency is at most ${Format.factor(f)} the best peer's ($unit)"
    case Target.AheadOfPeers(f) =>
      if f == 1.0 then "weft is ahead of every peer"
      else s"weft does at least ${Format.factor(f)} the work of every peer"

  /** A row's interval, or a point at its score when it has none. */
  def intervalOf(r: Row): Option[Interval] =
    r.score.map(s => r.interval.getOrElse(Interval.ofError(s, None, Interval.Level)))

  /**
   * weft's speedup over `other`: for ops/s weft ÷ other, for costs (ns/op, bytes/op) other ÷
   * weft; the bounds pair weft's worst end with the other's best end and vice versa. A lower end
   * at or below zero (an interval wider than its score) makes the ratio unbounded on that side.
   */
  def speedup(weft: Row, other: Row, higherIsBetter: Boolean): Option[Speedup] =
    for
      ws <- weft.score
      os <- other.score
      wi <- intervalOf(weft)
      oi <- intervalOf(other)
      if ws > 0 && os > 0
    yield
      def div(a: Double, b: Double) = if b <= 0 then Double.PositiveInfinity else math.max(0, a) / b
      val point = only(ws, os, higherIsBetter)
      val (low, high) =
        if higherIsBetter then (div(wi.low, oi.high), div(wi.high, oi.low))
        else (div(oi.low, wi.high), div(oi.high, wi.low))
      Speedup(point, low, high, wi.pointOnly || oi.pointOnly)

  private def only(ws: Double, os: Double, higherIsBetter: Boolean): Double =
    if higherIsBetter then ws / os else os / ws

  /** `0.93x (95%: 0.81x to 1.10x)`, or `0.93x (no interval: one sample)`. */
  def range(point: Double, low: Double, high: Double, pointOnly: Boolean): String =
    def f(d: Double) = if d.isInfinite then "unbounded" else Format.factor(d)
    if pointOnly then s"${Format.factor(point)} (no interval: one sample)"
    else s"${Format.factor(point)} (95%: ${f(low)} to ${f(high)})"

  /** Every target of `w` at every thread count present in `rows`. */
  def check(w: Workload, rows: Seq[Row]): Seq[(Target, Int, Verdict)] =
    val mine = rows.filter(_.workload == w.id)
    for
      t <- w.targets
      threads <- mine.map(_.threads).distinct.sorted
    yield
      val here = mine.filter(_.threads == threads)
      (t, threads, verdict(t, w, here))

  /** The verdict of one target over the rows of one workload at one thread count. */
  def verdict(t: Target, w: Workload, here: Seq[Row]): Verdict =
    def row(c: String) = here.find(r => r.contender == c && r.score.isDefined)
    row(w.judgedAs.id) match
      case None => Verdict(Outcome.NotChecked, s"no ${w.judgedAs.id} result")
      case Some(weft) =>
        val v = judge(t, w, here, weft, row)
        if w.judgedAs == Contender.weft then v
        else v.copy(detail = s"judged on `${w.judgedAs.id}`, the like for like: ${v.detail}")

  /** The verdict of `t` for the row `weft` (the workload's `judgedAs`). */
  private def judge(
      t: Target,
      w: Workload,
      here: Seq[Row],
      weft: Row,
      row: String => Option[Row]
  ): Verdict =
    t match
      case Target.WithinFactorOf(ref, factor) =>
        row(ref.id).flatMap(speedup(weft, _, w.higherIsBetter)) match
          case None => Verdict(Outcome.NotChecked, s"no result for `${ref.id}`")
          case Some(s) =>
            val c = Comparison(ref.id, s, 1.0 / factor)
            val cost = range(1 / s.point, 1 / s.high, 1 / s.low, s.pointOnly)
            Verdict(
              c.outcome,
              s"weft costs $cost `${ref.id}` (limit ${Format.factor(factor)})",
              Some(c)
            )
      case Target.AtLeast(min) =>
        val wi = intervalOf(weft).get
        val s = Speedup(weft.score.get / min, wi.low / min, wi.high / min, wi.pointOnly)
        val c = Comparison("goal", s, 1.0)
        val text =
          if wi.pointOnly then s"weft ${Format.number(weft.score.get)} ${w.unit} (no interval)"
          else
            s"weft ${Format.number(weft.score.get)} ${w.unit} (95%: ${Format.number(wi.low)} to ${Format.number(wi.high)})"
        Verdict(c.outcome, s"$text, goal ${Format.number(min)}", Some(c))
      case Target.AtMostOfBestPeer(factor) =>
        // The same check as AheadOfPeers at 1/factor, told as a ratio of latencies.
        val v = judge(Target.AheadOfPeers(1 / factor), w, here, weft, row)
        v.comparison.fold(v) { c =>
          val s = c.speedup
          val ratio = range(1 / s.point, 1 / s.high, 1 / s.low, s.pointOnly)
          v.copy(detail =
            s"weft's latency is $ratio the best peer `${c.reference}`'s (limit ${Format.factor(factor)})"
          )
        }
      case Target.AheadOfPeers(factor) =>
        val peers = here.filter(r =>
          isPeer(w, r.contender) && r.score.exists(_ > 0)
        )
        val against = peers.flatMap(p =>
          speedup(weft, p, w.higherIsBetter).map(s => Comparison(p.contender, s, factor))
        )
        if against.isEmpty then Verdict(Outcome.NotChecked, "no peer result")
        else
          // The best peer is the one weft is least ahead of; a MISSED against any peer
          // misses the target, an INCONCLUSIVE against any leaves it open.
          val best = against.minBy(_.speedup.point)
          val outcomes = against.map(_.outcome)
          val outcome =
            if outcomes.contains(Outcome.Missed) then Outcome.Missed
            else if outcomes.contains(Outcome.Inconclusive) then Outcome.Inconclusive
            else Outcome.Met
          val decisive = against.find(_.outcome == outcome).filter(_ => outcome != Outcome.Met)
          val shown = decisive.filter(_.reference != best.reference).toSeq.map(d =>
            s"; against `${d.reference}`: ${range(d.speedup.point, d.speedup.low, d.speedup.high, d.speedup.pointOnly)}"
          )
          val s = best.speedup
          Verdict(
            outcome,
            s"weft does ${range(s.point, s.low, s.high, s.pointOnly)} the work of the best peer " +
              s"`${best.reference}` (goal ${Format.factor(factor)})" + shown.mkString,
            Some(best)
          )

  /** A contender weft is compared with: not named `weft*`, not shown only. */
  def isPeer(w: Workload, contender: String): Boolean =
    !contender.startsWith("weft") && !w.isShownOnly(contender)

  /**
   * weft's speedup over the best peer ([[isPeer]]), at each thread count: the overview's figure
   * for a workload without a target.
   */
  def bestPeer(w: Workload, rows: Seq[Row]): Seq[(Int, Comparison)] =
    rows.map(_.threads).distinct.sorted.flatMap { threads =>
      val here = rows.filter(_.threads == threads)
      for
        weft <- here.find(r => r.contender == Workloads.Baseline && r.score.isDefined)
        best <- here
          .filter(r => isPeer(w, r.contender))
          .flatMap(p =>
            speedup(weft, p, w.higherIsBetter).map(s => Comparison(p.contender, s, Double.NaN))
          )
          .minByOption(_.speedup.point)
      yield threads -> best
    }
