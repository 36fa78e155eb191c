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
    case j: JmhRun => Plan.HostStartSeconds + j.benchmarks.size * Plan.benchmarkSeconds(j.params)
    case e: ExternalRun => if e.shared then 0 else e.runner.seconds

/** The jobs of a run and the workloads skipped, with the reason. */
final case class Plan(jobs: Seq[Job], skipped: Seq[(Workload, String)]):
  /** Total predicted seconds. */
  def predictedSeconds: Double = jobs.map(_.predictedSeconds).sum

/** Turning the registry into jobs. */
object Plan:

  /** Seconds to start the JMH host JVM. */
  val HostStartSeconds: Double = 2.0

  /** Seconds each forked benchmark JVM costs beyond its iterations (start-up, set-up, teardown). */
  val ForkOverheadSeconds: Double = 1.5

  /** Predicted seconds of one benchmark. */
  def benchmarkSeconds(p: Params): Double = p.seconds + p.forks * ForkOverheadSeconds

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

  /** Jobs for `workloads` in `mode`, given each module's benchmark listing and classpath. */
  def make(
      workloads: Seq[Workload],
      mode: RunMode,
      listings: Module => Seq[String],
      classpath: Module => String
  ): Plan =
    val perWorkload = workloads.map { w =>
      val missing = w.requires.flatMap(_.missing()).headOption
      w -> missing.fold(jobsOf(w, mode, listings, classpath))(Left(_))
    }
    val jobs = perWorkload.flatMap(_._2.toOption.toSeq.flatten)
    val seen = scala.collection.mutable.Set.empty[String]
    Plan(
      jobs = jobs.map {
        case e: Job.ExternalRun => e.copy(shared = !seen.add(e.runner.mainClass))
        case j                  => j
      },
      skipped = perWorkload.collect { case (w, Left(why)) => w -> why }
    )

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
        if found.isEmpty then
          Left(
            s"no benchmarks yet: nothing matches ${r.parts.map(p => s"`${p.regex}` in ${p.module.id}").mkString(", ")}"
          )
        else
          Right(for
            t <- w.threadsIn(mode)
            (part, benchmarks) <- found
          yield Job.JmhRun(w, part, r.mode, w.params(mode, t).get, t, benchmarks))
      case r: Runner.External =>
        val mainClass = r.mainClass.takeWhile(_ != ' ') // fixed arguments may follow the class
        if hasClass(classpath(r.module), mainClass) then Right(Seq(Job.ExternalRun(w, r)))
        else Left(s"no harness yet: ${r.mainClass} is not in ${r.module.id}")
