package weft.shootout

/** A JMH module of the build, by the id the sbt command passes its classpath under. */
enum Module(val id: String):
  /** `bench`: Scala 3 benchmarks, weft and its peers. */
  case Bench extends Module("bench")

  /** `benchScala2`: Scala 2.13 benchmarks for peers that only exist there (scala-async). */
  case BenchScala2 extends Module("benchScala2")

/** A JMH benchmark mode with the time unit the shootout reports it in. */
enum Mode(val jmhName: String, val timeUnit: String, val unit: String, val higherIsBetter: Boolean):
  /** Operations per second; higher is better. */
  case Throughput extends Mode("thrpt", "s", "ops/s", true)

  /** Nanoseconds per operation; lower is better. */
  case AverageTime extends Mode("avgt", "ns", "ns/op", false)

  /**
   * Whether a workload may label this mode's figures `workloadUnit`: JMH's own unit, or a name
   * for what one of its operations is with the same time base (`batches/s` for a throughput
   * benchmark whose operation is a batch).
   */
  def labels(workloadUnit: String): Boolean = this match
    case Throughput  => workloadUnit.endsWith("/s")
    case AverageTime => workloadUnit.startsWith("ns/")

/** JMH iteration settings for one run (`-wi -w -i -r -f`); times in JMH syntax (`1s`, `100ms`). */
final case class Params(
    warmupIterations: Int,
    warmupTime: String,
    iterations: Int,
    time: String,
    forks: Int
):
  require(forks >= 1, "the shootout always forks: forks must be >= 1")

  /** Seconds one benchmark takes at these settings, without JVM start-up. */
  def seconds: Double =
    forks * (warmupIterations * Params.toSeconds(warmupTime) + iterations * Params.toSeconds(time))

/** Iteration presets and JMH time parsing. */
object Params:
  /** `--smoke`: one tiny measured iteration, no warm-up. */
  val smoke: Params = Params(0, "100ms", 1, "100ms", 1)

  /**
   * The default of quick mode: two forks of three 300 ms warm-up and four 400 ms measured
   * iterations, so every interval has 8 samples from two JVMs (Student's t at 7 degrees of
   * freedom, 2.36, where one fork of 3 had 4.30 and no fork-to-fork spread). The suite's length
   * is kept down by what quick mode leaves out (`notInQuick` in [[Workload]]), not by fewer
   * samples; shootout/README.md records how long it takes.
   */
  val quick: Params = Params(3, "300ms", 4, "400ms", 2)

  /**
   * Quick mode for a workload whose score is bimodal across JVMs (a JVM settles in a fast or a
   * slow mode and keeps it for all its iterations): four forks of three measured iterations, so
   * that one slow JVM widens the interval instead of deciding the verdict alone. Used where a
   * verdict flipped across three quick runs of two forks: channel-buffered-16 (a JVM of jox or
   * of weft may settle at a third of its usual rate) and tcp-echo-concurrent. The other channel
   * workloads share channel-buffered-16's set-up but held; docs/perf/shootout.md has the runs.
   */
  val quickManyForks: Params = Params(3, "300ms", 3, "400ms", 4)

  /** Parses a JMH time value (`10s`, `100ms`, `500us`, `1m`) into seconds. */
  def toSeconds(time: String): Double =
    val t = time.trim
    val digits = t.takeWhile(c => c.isDigit || c == '.')
    val n = digits.toDouble
    t.drop(digits.length).trim match
      case "ms"        => n / 1e3
      case "us"        => n / 1e6
      case "ns"        => n / 1e9
      case "m" | "min" => n * 60
      case "s" | ""    => n
      case other => throw IllegalArgumentException(s"unknown JMH time unit '$other' in '$time'")

/** Benchmarks selected in one JMH module by a regex (JMH's `find` on the full method name). */
final case class JmhPart(module: Module, regex: String)

/** How a workload is measured. */
enum Runner:
  /**
   * One JMH JVM per part and thread count; `full` may differ per thread count.
   * `forkExtraSeconds` is what each benchmark fork takes beyond a plain fork's start-up and its
   * nominal iterations (starting and loading a memcached server, checking its counters;
   * operations that outlast an iteration), for the prediction only ([[Plan.benchmarkSeconds]]).
   */
  case Jmh(
      parts: Seq[JmhPart],
      mode: Mode,
      quick: Params = Params.quick,
      full: Params,
      fullByThreads: Map[Int, Params] = Map.empty,
      forkExtraSeconds: Double = 0
  )

  /**
   * A non-JMH harness: `mainClass` in `module` runs as
   * `java -cp <module classpath> <mainClass> --out <file.json> --mode <quick|full|smoke>` and writes
   * `[{"contender": name, "score": number, "error": number|null}]` in the workload's unit. The
   * workload's `contenders` are the names it promises, so a missing one is reported as FAILED.
   *
   * A harness that measures several metrics in one run adds `"metric": name` to each object;
   * a workload then names its `metric`, and workloads sharing `mainClass` share one run.
   * `seconds` is how long it takes in quick mode on an idle machine, for the estimate of time
   * left.
   */
  case External(
      module: Module,
      mainClass: String,
      metric: Option[String] = None,
      seconds: Double = 60
  )

/**
 * A figure from the seed's own report (other hardware, other versions).
 *
 * @param label
 *   the seed's name for the contender
 * @param ours
 *   our contender it corresponds to, if any
 */
final case class Published(
    label: String,
    threads: Int,
    score: Double,
    unit: String,
    ours: Option[Contender]
)

/** A performance goal for weft in a workload, checked at every thread count. */
enum Target:
  /** weft costs at most `factor` times what contender `reference` costs (cost = time per op). */
  case WithinFactorOf(reference: Contender, factor: Double)

  /** weft's score is at least `score` (for higher-is-better units). */
  case AtLeast(score: Double)

  /**
   * weft does at least `factor` times the work per second of every peer, that is of every
   * contender whose name does not start with `weft` (`weftRun` is weft in another shape).
   */
  case AheadOfPeers(factor: Double)

  /**
   * weft's figure (a latency: lower is better) is at most `factor` times that of every peer
   * (as [[AheadOfPeers]]), so at most `factor` times the best peer's.
   */
  case AtMostOfBestPeer(factor: Double)

/**
 * One workload of the shootout.
 *
 * @param id
 *   the stable id (`--only <id>`, file names, `summary.json`)
 * @param title
 *   what it measures, one line
 * @param seed
 *   where the workload comes from (`seed 002, Performance / Future`)
 * @param unit
 *   what the table, chart and `summary.json` say: `ops/s`, `ns/op`, `bytes/op`, or for a JMH
 *   workload whose operation is something else, its name (`batches/s`; see [[Mode.labels]])
 * @param contenders
 *   the workload's rows, declared in [[Contender]]: for a JMH workload exactly the
 *   `@Benchmark` methods its parts select (`ContendersSuite` checks the bench classes), for a
 *   harness the names it promises
 * @param threads
 *   JMH thread counts (`-t`); one JMH run each
 * @param threadSetup
 *   one line: on which kind of thread each contender's loop runs
 * @param publishedSource
 *   machine, JDK and parameters of the published figures
 * @param notes
 *   anything else a reader needs (amortisation, fairness caveats)
 * @param shownOnly
 *   contenders shown beside the like-for-like ones but never compared with weft (a peer set up
 *   unlike its users would, or a variant without a scope): no target or best peer uses them
 * @param requires
 *   programs the benchmarks need; without one the workload is skipped, the report saying how
 *   to install it
 * @param fullOnlyThreads
 *   thread counts measured in `--full` mode only, after `threads`
 * @param judgedAs
 *   the weft row the targets judge: `weft`, unless that row uses a facility no peer gets, when
 *   it is the like-for-like weft row beside it (ratios stay to `weft`)
 * @param notInQuick
 *   quick mode leaves the whole workload out (unless `--only` names it); `--full` and `--smoke`
 *   measure it, and a quick report says it was left out ([[Plan.make]], [[LeftOut]])
 * @param notInQuickContenders
 *   contenders (benchmark methods) quick mode leaves out, even under `--only`; `--full` and
 *   `--smoke` measure them. Never the weft row a target judges, nor a target's reference.
 * @param quickWhy
 *   why quick mode leaves out what it does (`notInQuick`, `notInQuickContenders`): the shootout
 *   README's table says it ([[ReadmeTables]])
 */
final case class Workload(
    id: String,
    title: String,
    seed: String,
    runner: Runner,
    unit: String,
    higherIsBetter: Boolean,
    threads: Seq[Int],
    threadSetup: String,
    contenders: Seq[Contender] = Nil,
    published: Seq[Published] = Nil,
    publishedSource: String = "",
    targets: Seq[Target] = Nil,
    notes: String = "",
    shownOnly: Set[Contender] = Set.empty,
    requires: Seq[Requirement] = Nil,
    fullOnlyThreads: Seq[Int] = Nil,
    judgedAs: Contender = Contender.weft,
    notInQuick: Boolean = false,
    notInQuickContenders: Set[Contender] = Set.empty,
    quickWhy: String = ""
):
  /** Whether the row named `contender` is shown but never compared ([[shownOnly]]). */
  def isShownOnly(contender: String): Boolean = shownOnly.exists(_.id == contender)

  /** Whether quick mode leaves out the row named `contender` ([[notInQuickContenders]]). */
  def leavesOutOfQuick(contender: String): Boolean = notInQuickContenders.exists(_.id == contender)

  /** The thread counts measured in `mode`. */
  def threadsIn(mode: RunMode): Seq[Int] =
    if mode == RunMode.Full then threads ++ fullOnlyThreads else threads

  /** JMH parameters for a mode and thread count (None for an external runner). */
  def params(mode: RunMode, threadCount: Int): Option[Params] = runner match
    case j: Runner.Jmh =>
      Some(mode match
        case RunMode.Smoke => Params.smoke
        case RunMode.Quick => j.quick
        case RunMode.Full  => j.fullByThreads.getOrElse(threadCount, j.full)
      )
    case _: Runner.External => None

/** How much of the suite to run and how long. */
enum RunMode:
  /**
   * Short iterations in two forks, without the workloads and contenders marked `notInQuick`
   * (shootout/README.md records how long it takes on 2 cores).
   */
  case Quick

  /** The seeds' own iteration counts. */
  case Full

  /** Every benchmark once, tiny: proves nothing rotted. */
  case Smoke
