package weft.shootout

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files

/**
 * Forking JMH: one host JVM per job (`org.openjdk.jmh.Main`), which itself forks the benchmark
 * JVMs (`-f`, always at least 1). When another JMH run on the machine holds JMH's lock, a job
 * waits for it (up to [[JmhRunner.LockWaitSeconds]]) rather than measuring beside it.
 */
final class JmhRunner(config: RunConfig, workDir: File, notify: String => Unit = _ => ()):

  private val unsafeFlag = "--sun-misc-unsafe-memory-access=allow"

  /**
   * The unsafe-memory-access flag where the build decided this JDK takes it (project/JvmFlags):
   * found among the build's benchmark flags, never decided again here.
   */
  private val unsafe: Seq[String] = config.jvmOptions.filter(_ == unsafeFlag).distinct

  /** Flags for every child JVM we start ourselves (JMH hosts, external harnesses). */
  private val hostFlags: Seq[String] =
    unsafe ++ Seq("-Xmx512m", "-Djava.awt.headless=true", "-Duser.language=en", "-Duser.country=US")

  /**
   * Flags of every benchmark JVM (`-jvmArgs`, replacing JMH's default of copying the host's):
   * the build's `bench / Jmh / javaOptions` without duplicates.
   */
  val benchmarkJvmArgs: Seq[String] = config.jvmOptions.filterNot(_ == unsafeFlag).distinct

  /** Appended to the benchmark JVMs (`-jvmArgsAppend`) only where this JDK accepts it. */
  val benchmarkJvmAppend: Seq[String] = unsafe

  /** Everything a benchmark JVM gets, for the report. */
  def allBenchmarkJvmArgs: Seq[String] = benchmarkJvmArgs ++ benchmarkJvmAppend

  /** Every benchmark JMH finds on a module's classpath (`-l`). */
  def list(module: Module): Seq[String] =
    val log = File(workDir, s"list-${module.id}.log")
    val lines = Seq.newBuilder[String]
    val exit = Java.run(
      Seq(Java.executable) ++ hostFlags ++ Seq(
        "-cp",
        config.classpath(module),
        "org.openjdk.jmh.Main",
        "-l"
      ),
      log,
      300
    )(lines += _)
    exit match
      case Java.Exit.Code(0) => JmhRunner.parseListing(lines.result())
      case other => throw IllegalStateException(
          s"listing JMH benchmarks of ${module.id} failed ($other); see $log"
        )

  /** The command line of one JMH job. */
  def command(job: Job.JmhRun, resultFile: File): Seq[String] =
    val p = job.params
    val regex =
      job.benchmarks.map(b => java.util.regex.Pattern.quote(b) + "$").mkString("^(", "|", ")")
    Seq(Java.executable) ++ hostFlags ++ Seq(
      "-cp",
      config.classpath(job.part.module),
      "org.openjdk.jmh.Main",
      regex
    ) ++
      Seq("-rf", "json", "-rff", resultFile.getAbsolutePath) ++
      Seq("-bm", job.mode.jmhName, "-tu", job.mode.timeUnit) ++
      Seq(
        "-wi",
        p.warmupIterations.toString,
        "-w",
        p.warmupTime,
        "-i",
        p.iterations.toString,
        "-r",
        p.time
      ) ++
      Seq("-f", p.forks.toString, "-t", job.threads.toString) ++
      Seq("-foe", "false") ++
      Seq("-jvmArgs", benchmarkJvmArgs.mkString(" ")) ++
      (if benchmarkJvmAppend.isEmpty then Nil
       else Seq("-jvmArgsAppend", benchmarkJvmAppend.mkString(" ")))

  /**
   * Runs one JMH job; `onBenchmark` is called as each benchmark starts. Returns the results, the
   * log file and, when the JVM failed as a whole, why.
   */
  def run(
      job: Job.JmhRun,
      index: Int
  )(onBenchmark: String => Unit): (Seq[JmhRecord], File, Option[String]) =
    val name = f"$index%02d-${job.workload.id}-t${job.threads}-${job.part.module.id}"
    val resultFile = File(workDir, s"$name.json")
    val log = File(workDir, s"$name.log")
    resultFile.delete()
    val timeout = (job.predictedSeconds * 3 + 300).toLong
    val waitStart = System.nanoTime()
    def waited = (System.nanoTime() - waitStart) / 1e9
    var lockBusy = false
    var exit: Java.Exit = Java.Exit.Code(0)
    while
      lockBusy = false
      exit = Java.run(command(job, resultFile), log, timeout, JmhRunner.detailsEnv(workDir)) {
        line =>
          if line.contains(JmhRunner.LockMessage) then lockBusy = true
          if line.startsWith("# Benchmark: ") then
            onBenchmark(line.stripPrefix("# Benchmark: ").trim)
      }
      lockBusy && waited < JmhRunner.LockWaitSeconds
    do
      notify(
        s"another JMH run holds its lock (/tmp/jmh.lock); waiting (${Format.duration(waited)} so far)"
      )
      Thread.sleep(JmhRunner.LockRetrySeconds * 1000L)
    // JMH writes its JSON only at the end: when the JVM died or was killed, keep the benchmarks
    // that had finished, as printed in the log.
    val lines = readLines(log)
    val records = JmhRunner.withoutFailed(
      if resultFile.exists then
        JmhJson.parse(Files.readString(resultFile.toPath, StandardCharsets.UTF_8))
      else JmhRunner.resultsFromLog(lines, job),
      lines
    )
    val problem = exit match
      case Java.Exit.Code(0)     => None
      case Java.Exit.Code(c)     => Some(s"JMH exited with code $c")
      case Java.Exit.TimedOut(s) => Some(s"killed after ${s}s (timeout)")
    (records, log, problem)

  private def readLines(f: File): Seq[String] =
    if f.exists then
      Files.readAllLines(f.toPath, StandardCharsets.UTF_8).toArray(Array.empty[String]).toSeq
    else Nil

/** Parsing JMH's console output. */
object JmhRunner:

  /**
   * The environment variable naming the directory where a benchmark may leave Markdown detail
   * (`*.md`), which `Main` appends to the report: the memcached benchmarks' server-side table.
   */
  val DetailsDirVariable: String = "WEFT_SHOOTOUT_DETAILS"

  /**
   * `records` without those of benchmarks whose section of the log shows a `<failure>`: JMH
   * keeps the iterations that ended before an exception (in a `@TearDown` too, where the
   * memcached benchmarks check the server's counters) and scores them, but a benchmark that
   * failed is FAILED, never scored on part of its run.
   */
  def withoutFailed(records: Seq[JmhRecord], logLines: Seq[String]): Seq[JmhRecord] =
    records.filterNot(r => failedInLog(logLines, r.benchmark))

  /** Whether the log section of `benchmark` contains a JMH `<failure>`. */
  def failedInLog(logLines: Seq[String], benchmark: String): Boolean =
    logLines
      .dropWhile(l => l.trim != s"# Benchmark: $benchmark")
      .drop(1)
      .takeWhile(l => !l.startsWith("# Benchmark: "))
      .exists(_.contains("<failure>"))

  /** The environment of a JMH host (inherited by its forks): the details directory. */
  def detailsEnv(dir: File): Map[String, String] = Map(DetailsDirVariable -> dir.getAbsolutePath)

  private val ResultHeader = """Result "(.+)":""".r
  private val ResultLine = """\s+([0-9.]+|NaN)(?: ±\(99\.9%\) ([0-9.]+|NaN))? (\S+)(?: \[.*\])?""".r

  /**
   * The results JMH printed (`Result "name":` and the score line below) for benchmarks of
   * `job`, with the job's parameters; `raw` is a minimal JMH-style object marked `"fromLog"`.
   */
  def resultsFromLog(lines: Seq[String], job: Job.JmhRun): Seq[JmhRecord] =
    lines.sliding(2).toSeq.collect {
      case Seq(ResultHeader(name), ResultLine(score, error, unit))
          if job.benchmarks.contains(name) =>
        val p = job.params
        val err = Option(error).flatMap(_.toDoubleOption).filterNot(_.isNaN)
        val raw = ujson.Obj(
          "benchmark" -> name,
          "mode" -> job.mode.jmhName,
          "threads" -> job.threads,
          "forks" -> p.forks,
          "primaryMetric" -> ujson.Obj(
            "score" -> score.toDouble,
            "scoreError" -> err.fold[ujson.Value](ujson.Null)(ujson.Num(_)),
            "scoreUnit" -> unit
          ),
          "fromLog" -> true
        )
        JmhRecord(
          name,
          job.mode.jmhName,
          job.threads,
          p.forks,
          p.warmupIterations,
          p.warmupTime,
          p.iterations,
          p.time,
          score.toDouble,
          err,
          unit,
          "",
          "",
          "",
          "",
          raw
        )
    }

  /** What JMH prints when another JMH run holds its machine-wide lock. */
  val LockMessage: String = "Unable to acquire the JMH lock"

  /** How long a job waits for another JMH run to finish before it is reported as FAILED. */
  val LockWaitSeconds: Long = 3600

  /** Seconds between attempts while the lock is held. */
  val LockRetrySeconds: Long = 20

  /** The benchmark names in the output of `org.openjdk.jmh.Main -l`. */
  def parseListing(lines: Seq[String]): Seq[String] =
    lines.dropWhile(l => !l.startsWith("Benchmarks:")).drop(1).map(_.trim).filter(_.nonEmpty)

  /**
   * Why a benchmark has no result: the exception JMH printed after `<failure>` in its section of
   * the log, whether the JVM failed as a whole, and the log's name.
   */
  def failureReason(
      logLines: Seq[String],
      logName: String,
      benchmark: String,
      problem: Option[String]
  ): String =
    val section = logLines
      .dropWhile(l => !l.startsWith(s"# Benchmark: $benchmark"))
      .drop(1)
      .takeWhile(l => !l.startsWith("# Benchmark: "))
    val detail =
      section.dropWhile(l => !l.contains("<failure>")).drop(1).find(_.trim.nonEmpty).map(_.trim)
    val why = problem.toSeq ++ detail.toSeq
    (if why.isEmpty then Seq("no result from JMH") else why).mkString(
      "; "
    ) + s" (see logs/$logName)"
