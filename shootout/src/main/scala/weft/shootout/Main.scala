package weft.shootout

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.time.Instant
import scala.jdk.CollectionConverters.*
import scala.util.Try

/**
 * The shootout: plans the jobs, forks one JMH JVM per workload, module and thread count, and
 * writes `REPORT.md`, one PNG per workload, `results.json` and `summary.json`. Started by the
 * `shootout` sbt command, which passes `--config <run.properties>`; see `shootout/README.md`.
 */
object Main:

  /** Entry point; exits 1 when a benchmark failed (after writing the report), 2 on bad arguments. */
  def main(args: Array[String]): Unit =
    System.setProperty("java.awt.headless", "true")
    Options.parse(args.toSeq) match
      case Left(error) =>
        System.err.println(error)
        sys.exit(2)
      case Right(options) =>
        val failed = run(options)
        if failed > 0 then
          System.err.println(s"[shootout] $failed benchmark(s) FAILED; see the report")
          sys.exit(1)

  private def say(s: String): Unit =
    println(s"[shootout] $s")
    Console.out.flush()

  /**
   * Runs the suite as `options` say, `options.repeat` times; returns the number of failed
   * benchmarks of the last run. Each run rewrites the report; after a repeat the last run's
   * `REPORT.md` ends with the rerun check, also written to `repeat.json`.
   */
  def run(options: Options): Int =
    val out = options.out.getOrElse(File(RunConfig.load(options.config).rootDir, "reports/latest"))
    val runs = (1 to options.repeat).map { k =>
      if options.repeat > 1 then say(s"run $k of ${options.repeat}")
      runOnce(options)
    }
    if options.repeat > 1 then
      val tallies = Repeat.tally(runs.map((_, rows) => Repeat.verdicts(options.workloads, rows)))
      val report = File(out, "REPORT.md")
      Files.writeString(
        report.toPath,
        Files.readString(report.toPath, StandardCharsets.UTF_8) +
          Repeat.render(tallies, options.repeat).mkString("\n", "\n", "\n"),
        StandardCharsets.UTF_8
      )
      write(File(out, "repeat.json"), Repeat.json(tallies))
      tallies.filter(_.flipped).foreach(t =>
        say(s"verdict does not hold: ${t.workload} t=${t.threads}: ${t.labels.mkString(", ")}")
      )
    runs.last._1

  /** One run of the suite: the number of failed benchmarks, and the rows. */
  private def runOnce(options: Options): (Int, Seq[Row]) =
    val started = Instant.now()
    val clock = System.nanoTime()
    val config = RunConfig.load(options.config)
    val out = options.out.getOrElse(File(config.rootDir, "reports/latest"))
    val logs = File(out, "logs")
    clean(out)
    logs.mkdirs()
    val machine = Machine.current()
    val workloads = options.workloads
    val jmh = JmhRunner(config, logs, s => say(s"  $s"))
    val modules = workloads.flatMap(_.runner match
      case r: Runner.Jmh => r.parts.map(_.module)
      case _             => Nil
    ).distinct
    say(
      s"${options.mode.toString.toLowerCase} mode, ${machine.cores} cores, load ${f"${machine.loadAverage}%.2f"}; listing benchmarks"
    )
    val listings = modules.map(m => m -> jmh.list(m)).toMap
    val plan = options.plan(m => listings.getOrElse(m, Nil), config.classpath)
    plan.skipped.foreach((w, why) => say(s"skipping ${w.id}: $why"))
    plan.leftOut.foreach(l => say(s"left out of quick mode (--full runs it): ${l.describe}"))
    say(s"${plan.jobs.size} JMH/harness runs, predicted ${Format.duration(plan.predictedSeconds)}")
    val progress = Progress(plan.predictedSeconds)
    val external = ExternalRunner(config, logs, jmh.allBenchmarkJvmArgs)
    val results = plan.jobs.zipWithIndex.map { (job, i) =>
      val n = i + 1
      say(s"$n of ${plan.jobs.size}: ${job.label}; ${progress.status}")
      val (outcome, advanced) = job match
        case j: Job.JmhRun      => runJmh(jmh, j, n, plan.jobs.size, progress)
        case e: Job.ExternalRun => ((external.run(e, n, options.mode), Nil), 0.0)
      outcome._1.filter(_.failed).foreach(r =>
        say(s"  FAILED: ${r.workload} ${r.contender} (t=${r.threads}): ${r.failure.getOrElse("")}")
      )
      progress.advance(job.predictedSeconds - advanced)
      outcome
    }
    val rows = ServerCpu.attach(Rows.withRatios(results.flatMap(_._1)), logs)
    val records = results.flatMap(_._2)
    val info = RunInfo(
      mode = options.mode,
      started = started,
      seconds = (System.nanoTime() - clock) / 1e9,
      machine = machine,
      loadAtEnd = Machine.loadNow(),
      versions = config.versions,
      commit = gitCommit(config.rootDir),
      jmhVersion = records.headOption.map(_.jmhVersion),
      benchmarkJvmArgs = jmh.allBenchmarkJvmArgs
    )
    write(File(out, "results.json"), ujson.write(ujson.Arr.from(records.map(_.raw)), indent = 2))
    write(File(out, "summary.json"), SummaryJson.render(rows, workloads))
    for w <- workloads if rows.exists(_.workload == w.id) do
      Charts.writePng(w, rows.filter(_.workload == w.id), File(out, s"${w.id}.png"))
    Charts.writePng(
      Charts.overview(Overview.lines(workloads, rows, options.mode != RunMode.Smoke)),
      File(out, "overview.png")
    )
    OpenLoopCharts.write(logs, out)
    // External harnesses may leave Markdown detail beside their JSON (the memory workloads'
    // class histograms): it goes at the end of the report.
    val details = Option(File(out, "logs").listFiles).toSeq.flatten
      .filter(_.getName.endsWith(".md"))
      .sortBy(_.getName)
      .map(f => Files.readString(f.toPath, StandardCharsets.UTF_8).replaceAll("(?m)^# ", "## "))
    val report = Report.render(info, workloads, rows, plan.skipped, plan.leftOut)
    write(
      File(out, "REPORT.md"),
      if details.isEmpty then report
      else report + "\n# Details from the harnesses\n\n" + details.mkString("\n")
    )
    say(s"report written to ${File(out, "REPORT.md")} in ${Format.duration(info.seconds)}")
    (rows.count(_.failed), rows)

  /**
   * Runs one JMH job, reporting each benchmark as it starts; returns its rows and records and
   * how many predicted seconds it advanced the progress by.
   */
  private def runJmh(
      jmh: JmhRunner,
      j: Job.JmhRun,
      n: Int,
      total: Int,
      progress: Progress
  ): ((Seq[Row], Seq[JmhRecord]), Double) =
    var advanced = 0.0
    var started = 0
    val (records, log, problem) = jmh.run(j, n) { benchmark =>
      val step = if started == 0 then Plan.HostStartSeconds else Plan.benchmarkSeconds(j)
      progress.advance(step)
      advanced += step
      started += 1
      val contender = JmhJson.contenderOf(benchmark)
      say(s"  $n of $total: ${j.workload.id} $contender (t=${j.threads}); ${progress.status}")
    }
    val lines =
      Try(Files.readAllLines(log.toPath, StandardCharsets.UTF_8).asScala.toSeq).getOrElse(Nil)
    val rows = j.benchmarks.flatMap { b =>
      val why = JmhRunner.failureReason(lines, log.getName, b, problem)
      Rows.fromJmh(j.workload, j.part.module, j.mode, j.params, j.threads, Seq(b), records, why)
    }
    ((rows, records), advanced)

  private def write(f: File, text: String): Unit =
    Files.writeString(f.toPath, text, StandardCharsets.UTF_8)

  /** Removes the previous report's files (and only those) from `out`. */
  private def clean(out: File): Unit =
    out.mkdirs()
    val old = Option(out.listFiles).toSeq.flatten
    old.filter(f =>
      f.isFile && (f.getName.endsWith(".png") || f.getName.endsWith(".json") || f.getName == "REPORT.md")
    ).foreach(_.delete())
    Option(File(out, "logs").listFiles).toSeq.flatten.foreach(_.delete())

  private def gitCommit(root: File): Option[String] = Try {
    val p =
      ProcessBuilder("git", "-C", root.getPath, "rev-parse", "--short", "HEAD").redirectErrorStream(
        true
      ).start()
    val text = String(p.getInputStream.readAllBytes(), StandardCharsets.UTF_8).trim
    Option.when(p.waitFor() == 0 && text.nonEmpty)(text)
  }.toOption.flatten
