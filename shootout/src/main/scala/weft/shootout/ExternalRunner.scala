package weft.shootout

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import scala.collection.immutable.ListMap
import scala.util.Try

/**
 * Runs a non-JMH harness (see [[Runner.External]]) and turns its JSON into rows; a harness
 * that gives each score's independent samples (`"samples"`) gets their Student-t interval.
 */
final class ExternalRunner(config: RunConfig, workDir: File, jvmArgs: Seq[String]):

  /** Harnesses already run in this session: main class → (output text, problem, log). */
  private val done = scala.collection.mutable.Map.empty[String, (String, Option[String], File)]

  /** Runs `job` (or reuses its harness's run); every promised contender without a score is FAILED. */
  def run(job: Job.ExternalRun, index: Int, mode: RunMode): Seq[Row] =
    val w = job.workload
    val (text, problem, log) = done.getOrElseUpdate(
      job.runner.mainClass, {
        val name = f"$index%02d-${w.id}"
        val out = File(workDir, s"$name.json")
        val log = File(workDir, s"$name.log")
        out.delete()
        // `mainClass` may carry fixed arguments after the class name ("Main --million").
        val cmd = Seq(Java.executable) ++ jvmArgs ++
          Seq("-cp", config.classpath(job.runner.module)) ++
          job.runner.mainClass.split(" ").toSeq ++
          Seq("--out", out.getAbsolutePath, "--mode", mode.toString.toLowerCase)
        val exit = Java.run(cmd, log, 3600)(_ => ())
        val problem = exit match
          case Java.Exit.Code(0) => None
          case other             => Some(s"harness ended with $other")
        val text =
          if out.exists then Files.readString(out.toPath, StandardCharsets.UTF_8) else ""
        (text, problem, log)
      }
    )
    val scores = ExternalRunner.parse(text, job.runner.metric)
    val samples = ExternalRunner.samples(text, job.runner.metric)
    val params = ListMap[String, ujson.Value](
      "threads" -> ujson.Num(1),
      "module" -> ujson.Str(job.runner.module.id),
      "harness" -> ujson.Str(job.runner.mainClass),
      "mode" -> ujson.Str(mode.toString.toLowerCase)
    ) ++ job.runner.metric.map(m => "metric" -> ujson.Str(m))
    val names = (w.contenders.map(_.id) ++ scores.keys.toSeq.sorted).distinct
    names.map { c =>
      val base = Row(w.id, c, 1, None, None, w.unit, w.higherIsBetter, params)
      scores.get(c) match
        case Some((score, error)) =>
          val interval = ExternalRunner.interval(score, error, samples.getOrElse(c, Nil))
          base.copy(score = Some(score), error = error, interval = Some(interval))
        case None => base.copy(failure =
            Some((problem.toSeq :+ s"no score from the harness (see logs/${log.getName})").mkString(
              "; "
            ))
          )
    }

/** The harness output format. */
object ExternalRunner:

  /**
   * A harness row's interval: with two or more `samples` (independent measurements whose
   * geometric mean is its score, as the open loop's blocks), Student's t on their logarithms,
   * taken back: figures that spread by factors (latencies) get an interval that stays
   * positive and is as wide in ratio above the score as below, where one on their arithmetic
   * mean went below zero. With a sample at or below zero, Student's t of the plain mean. Without
   * samples, from its error at the shootout's level, else its point.
   */
  def interval(score: Double, error: Option[Double], samples: Seq[Double]): Interval =
    if samples.size >= 2 && samples.forall(_ > 0) then
      val logs = Interval.ofSamples(samples.map(math.log)).get
      Interval(math.exp(logs.low), math.exp(logs.high), logs.level)
    else if samples.size >= 2 then Interval.ofSamples(samples).get
    else Interval.ofError(score, error, Interval.Level)

  /** The `"samples": [numbers]` of each contender (with a `metric`, of that metric only). */
  def samples(text: String, metric: Option[String] = None): Map[String, Seq[Double]] =
    Try(ujson.read(text).arr.toSeq).getOrElse(Nil).flatMap { v =>
      for
        o <- v.objOpt
        if metric.forall(m => o.get("metric").flatMap(_.strOpt).contains(m))
        c <- o.get("contender").flatMap(_.strOpt)
        a <- o.get("samples").flatMap(_.arrOpt)
      yield c -> a.toSeq.flatMap(_.numOpt)
    }.toMap

  /**
   * `[{"contender": "...", "score": 1.0, "error": 0.1 | null}]` to contender → (score, error);
   * with a `metric`, only the objects whose `"metric"` is that.
   */
  def parse(text: String, metric: Option[String] = None): Map[String, (Double, Option[Double])] =
    Try(ujson.read(text).arr.toSeq).getOrElse(Nil).flatMap { v =>
      for
        o <- v.objOpt
        if metric.forall(m => o.get("metric").flatMap(_.strOpt).contains(m))
        c <- o.get("contender").flatMap(_.strOpt)
        s <- o.get("score").flatMap(_.numOpt)
      yield c -> (s, o.get("error").flatMap(_.numOpt))
    }.toMap
