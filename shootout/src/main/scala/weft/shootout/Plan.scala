package weft.shootout

import java.net.{URL, URLClassLoader}
import java.io.File
import java.util.regex.Pattern

/** One child JVM of the run, measuring `workload`. */
enum Job(val workload: Workload):
  /** A JMH run of `benchmarks` (all in `part.module`) at one thread count. */
  case JmhRun(
      w: Workload,
      part: JmhPart,
      mode: Mode,
      params: Params,
      threads: Int,
      benchmarks: Seq[String]
  ) extends Job(w)

  /** A non-JMH harness; `shared` when an earlier job runs the same harness (its metrics). */
  case ExternalRun(w: Workload, runner: Runner.External, shared: Boolean = false) extends Job(w)

  /** Short label for progress lines and log file names. */
  def label: String = this match
    case j: JmhRun      => s"${j.workload.id} (t=${j.threads}, ${j.part.module.id})"
    case j: ExternalRun => s"${j.workload.id} (${j.runner.mainClass})"

  /** Predicted seconds, for the estimate of time left. */
  def predictedSeconds: Double = this match
    case j: JmhRun      => Plan.HostStartSeconds + j.benchmarks.size * Plan.benchmarkSeconds(j)
    case e: ExternalRun => if e.shared then 0 else e.runner.seconds

/** The jobs of a run, the workloads skipped with the reason, and what quick mode left out. */
final case class Plan(
    jobs: Seq[Job],
    skipped: Seq[(Workload, String)],
    leftOut: Seq[LeftOut] = Nil
):
  /** Total predicted seconds. */
  def predictedSeconds: Double = jobs.map(_.predictedSeconds).sum

/**
 * Turning the registry into jobs, and predicting how long they take.
 *
 * The prediction is calibrated on a quick run on an idle 2-core machine (shootout/README.md,
 * "Quick mode, measured"): a JMH job costs [[HostStartSeconds]], each of its benchmarks its
 * iterations plus, per fork, [[ForkOverheadSeconds]] and the workload's own `forkExtraSeconds`
 * (a memcached fork starts and loads a server); a harness costs its own `seconds`. `PlanSuite`
 * re-checks the arithmetic.
 */
object Plan:

  /** Seconds a JMH job costs beyond its benchmarks: the host JVM's start and exit. */
  val HostStartSeconds: Double = 1.0

  /**
   * Seconds each forked benchmark JVM costs beyond its iterations: start-up with the
   * pre-touched heap, JMH's set-up and teardown.
   */
  val ForkOverheadSeconds: Double = 1.0

  /** Predicted seconds of one benchmark at `p`, with `extra` more seconds per fork. */
  def benchmarkSeconds(p: Params, extra: Double = 0): Double =
    p.seconds + p.forks * (ForkOverheadSeconds + extra)

  /** Predicted seconds of each benchmark of `j`, its workload's extra per fork included. */
  def benchmarkSeconds(j: Job.JmhRun): Double = j.workload.runner match
    case r: Runner.Jmh => benchmarkSeconds(j.params, r.forkExtraSeconds)
    case _             => benchmarkSeconds(j.params)

  /** The benchmarks of `listing` that JMH selects with `regex` (it uses `find`). */
  def matching(listing: Seq[String], regex: String): Seq[String] =
    val p = Pattern.compile(regex)
    listing.filter(b => p.matcher(b).find())

  /** Whether a class is on a classpath string. */
  def hasClass(classpath: String, className: String): Boolean =
    val urls = classpath.split(File.pathSeparator).filter(_.nonEmpty).map(f => File(f).toURI.toURL)
    val loader = URLClassLoader(urls, null: ClassLoader)
    try loader.findResource(className.replace('.', '/') + ".class") != null
    finally loader.close()

  /**
   * Jobs for `workloads` in `mode`, given each module's benchmark listing and classpath. In
   * quick mode a workload marked `notInQuick` is left out unless `named` (by `--only`) holds its
   * id, and contenders marked `notInQuickContenders` are left out always; both are listed in
   * the plan's `leftOut`. `--full` and `--smoke` measure everything.
   */
  def make(
      workloads: Seq[Workload],
      mode: RunMode,
      listings: Module => Seq[String],
      classpath: Module => String,
      named: Set[String] = Set.empty
  ): Plan =
    val quick = mode == RunMode.Quick
    val (leftWhole, measured) = workloads.partition(w => quick && w.notInQuick && !named(w.id))
    val perWorkload = measured.map { w =>
      val missing = w.requires.flatMap(_.missing()).headOption
      w -> missing.fold(jobsOf(w, mode, listings, classpath))(Left(_))
    }
    val jobs = perWorkload.flatMap(_._2.toOption.toSeq.flatten)
    val seen = scala.collection.mutable.Set.empty[String]
    val leftRows = perWorkload.collect {
      case (w, Right(_)) if quick => LeftOut(w, leftOutContenders(w, listings))
    }.filterNot(_.whole)
    Plan(
      jobs = jobs.map {
        case e: Job.ExternalRun => e.copy(shared = !seen.add(e.runner.mainClass))
        case j                  => j
      },
      skipped = perWorkload.collect { case (w, Left(why)) => w -> why },
      leftOut = workloads.flatMap(w =>
        if leftWhole.contains(w) then Seq(LeftOut(w, Nil)) else leftRows.filter(_.workload == w)
      )
    )

  /** The contenders of `w` found in the listings that quick mode leaves out. */
  private def leftOutContenders(w: Workload, listings: Module => Seq[String]): Seq[String] =
    w.runner match
      case r: Runner.Jmh =>
        r.parts.flatMap(p => matching(listings(p.module), p.regex)).filter(notInQuick(w))
          .map(JmhJson.contenderOf).distinct
      case _: Runner.External => Nil

  /** Whether quick mode leaves out `benchmark` (a full name) of `w`. */
  private def notInQuick(w: Workload)(benchmark: String): Boolean =
    w.leavesOutOfQuick(JmhJson.contenderOf(benchmark))

  /** The jobs of one workload whose requirements are met, or why it is skipped. */
  private def jobsOf(
      w: Workload,
      mode: RunMode,
      listings: Module => Seq[String],
      classpath: Module => String
  ): Either[String, Seq[Job]] =
    w.runner match
      case r: Runner.Jmh =>
        val found =
          r.parts.map(part => part -> matching(listings(part.module), part.regex)).filter(
            _._2.nonEmpty
          )
        // A part whose every benchmark quick mode leaves out gets no JVM.
        val kept = found.map((part, benchmarks) =>
          part -> benchmarks.filterNot(b => mode == RunMode.Quick && notInQuick(w)(b))
        ).filter(_._2.nonEmpty)
        if found.isEmpty then
          Left(
            s"no benchmarks yet: nothing matches ${r.parts.map(p => s"`${p.regex}` in ${p.module.id}").mkString(", ")}"
          )
        else
          Right(for
            t <- w.threadsIn(mode)
            (part, benchmarks) <- kept
          yield Job.JmhRun(w, part, r.mode, w.params(mode, t).get, t, benchmarks))
      case r: Runner.External =>
        val mainClass = r.mainClass.takeWhile(_ != ' ') // fixed arguments may follow the class
        if hasClass(classpath(r.module), mainClass) then Right(Seq(Job.ExternalRun(w, r)))
        else Left(s"no harness yet: ${r.mainClass} is not in ${r.module.id}")
