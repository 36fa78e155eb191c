package weft.shootout

/** The outcome of checking one [[Target]] at one thread count. */
enum Verdict(val detail: String):
  /** weft meets the target. */
  case Met(override val detail: String) extends Verdict(detail)

  /** weft misses the target: the report says so. */
  case Missed(override val detail: String) extends Verdict(detail)

  /** Could not be checked (a contender failed or is absent). */
  case Unknown(override val detail: String) extends Verdict(detail)

  /** `MET`, `MISSED` or `NOT CHECKED`. */
  def label: String = this match
    case _: Met     => "MET"
    case _: Missed  => "MISSED"
    case _: Unknown => "NOT CHECKED"

/** Checking a workload's targets against its rows. */
object Targets:

  /** A target in words. */
  def describe(t: Target, unit: String): String = t match
    case Target.WithinFactorOf(ref, f) =>
      s"weft costs at most ${Format.factor(f)} what `$ref` costs per op"
    case Target.AtLeast(score) => s"weft reaches at least ${Format.number(score)} $unit"
    case Target.AheadOfPeers(f) =>
      if f == 1.0 then "weft is ahead of every peer"
      else s"weft does at least ${Format.factor(f)} the work of every peer"

  /** Every target of `w` at every thread count present in `rows`. */
  def check(w: Workload, rows: Seq[Row]): Seq[(Target, Int, Verdict)] =
    val mine = rows.filter(_.workload == w.id)
    for
      t <- w.targets
      threads <- mine.map(_.threads).distinct.sorted
    yield
      def score(c: String) =
        mine.find(r => r.contender == c && r.threads == threads).flatMap(_.score)
      val verdict = t match
        case Target.WithinFactorOf(ref, factor) =>
          (score(Workloads.Baseline), score(ref)) match
            case (Some(weft), Some(other)) if weft > 0 && other > 0 =>
              val cost = if w.higherIsBetter then other / weft else weft / other
              val text =
                s"weft costs ${Format.factor(cost)} `$ref` (limit ${Format.factor(factor)})"
              if cost <= factor then Verdict.Met(text) else Verdict.Missed(text)
            case (None, _) => Verdict.Unknown("no weft result")
            case _         => Verdict.Unknown(s"no result for `$ref`")
        case Target.AtLeast(min) =>
          score(Workloads.Baseline) match
            case Some(weft) =>
              val text = s"weft ${Format.number(weft)} ${w.unit} (goal ${Format.number(min)})"
              if weft >= min then Verdict.Met(text) else Verdict.Missed(text)
            case None => Verdict.Unknown("no weft result")
        case Target.AheadOfPeers(factor) =>
          val peers = mine.filter(r => r.threads == threads && !r.contender.startsWith("weft"))
          val best = peers.flatMap(r => r.score.map(s => (r.contender, s))).filter(_._2 > 0)
          (score(Workloads.Baseline), best) match
            case (Some(weft), Seq(_, _*)) if weft > 0 =>
              val (name, top) =
                if w.higherIsBetter then best.maxBy(_._2) else best.minBy(_._2)
              val times = if w.higherIsBetter then weft / top else top / weft
              val text =
                s"weft does ${Format.factor(times)} the work of the best peer `$name` " +
                  s"(goal ${Format.factor(factor)})"
              if times >= factor then Verdict.Met(text) else Verdict.Missed(text)
            case (None, _) => Verdict.Unknown("no weft result")
            case _         => Verdict.Unknown("no peer result")
      (t, threads, verdict)
