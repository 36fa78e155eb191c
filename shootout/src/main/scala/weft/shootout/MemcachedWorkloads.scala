package weft.shootout

import WorkloadSupport.jmh
import Contender.*

/**
 * The memcached client workloads (seed 004; benchmarks in `weft.bench.memcached`): weft's
 * client against spymemcached, xmemcached and folsom on one real server per fork.
 */
object MemcachedWorkloads:

  /** The server both workloads need. */
  val server: Requirement =
    Requirement("memcached", "install Debian's memcached (`apt-get install memcached`)")

  private val seedSource =
    "seed 004: i7-4910MQ, Java 8, memcached 1.4.14 on localhost:11211, JMH @Fork(1) " +
      "@Threads(32), 20 measured iterations; one client instance per contender; folsom stored " +
      "values with Java serialisation (our folsomSerialAscii); xmemcached's wrapper counted its " +
      "latch down before each blocking call"

  private val threadSetup =
    "JMH platform threads share one client (one connection) per fork. weft: each op enters " +
      "Async.blocking (its body runs on the JMH thread) and makes its calls there; spymemcached " +
      "and folsom: asynchronous calls, then the thread waits for all; xmemcached: blocking calls."

  private val fairness =
    "Per JMH fork a fresh memcached on a free 127.0.0.1 port, flags `-U 0 -l 127.0.0.1 -t 2 " +
      "-m 64 -c 1024` (`-u root` as root), ready once it answers `version`, killed at teardown. " +
      "Every client: one connection, TCP_NODELAY, UTF-8 values (folsomSerialAscii: Java " +
      "serialisation, the seed's folsom), per-call timeouts of 60 s (a timed-out call fails the " +
      "benchmark), its default optimisations kept (spymemcached and xmemcached merge queued " +
      "gets; folsom batches). Every value read back is checked, and at teardown the server's " +
      "`stats` deltas (cmd_set, cmd_get, get_hits) must equal ops x requests per op, or the " +
      "benchmark FAILS. The server shares the 2 cores with the client; its CPU time per " +
      "measured op is in the column \"server CPU per op\" (summary.json: " +
      "serverCpuMicrosPerOp), the benchmark JVM's in \"client CPU per op\" " +
      "(clientCpuMicrosPerOp: the process's CPU time over the measured iterations ÷ their ops, " +
      "every thread of it, so the JMH harness's own threads count too, alike for every " +
      "contender), and both per fork in the table \"the server's side\" at the end of the report."

  private val contenders =
    "weft (meta protocol), weftInScope (the same client, 100 ops per Async.blocking instead of " +
      "one: what entering a scope per op costs; not a peer), weftClassic (weft with classic text " +
      "commands; not a peer), spyAscii/spyBinary (spymemcached 2.12.3), xmemAscii/xmemBinary " +
      "(xmemcached 2.4.9, its get merging on), xmemAsciiUnmerged/xmemBinaryUnmerged (merging " +
      "off: the merge sends a key once for every get of it queued together, so the server does " +
      "fewer gets than were called: memcached-setget has only the unmerged rows), folsomAscii/folsomBinary (folsom 1.21.0 string client), " +
      "folsomSerialAscii (folsom's serialising client)."

  /**
   * The benchmarks of `cls` in `weft.bench.memcached`, ops/s; `--full`: 5 + `measured` x 1 s.
   * `setup`: seconds each fork spends on its servers beyond a plain fork (start, preload, the
   * stats check), for the prediction ([[Plan.benchmarkSeconds]]).
   */
  private def benchClass(cls: String, measured: Int, setup: Double): Runner.Jmh = Runner.Jmh(
    Seq(jmh(s"^weft\\.bench\\.memcached\\.$cls\\.")),
    Mode.Throughput,
    full = Params(5, "1s", measured, "1s", 1),
    forkExtraSeconds = setup
  )

  /** Per-fork set-up of one server with few keys, in seconds (shootout/README.md). */
  private val serverSetup = 1.5

  /** Per-fork set-up with 5000 keys preloaded or three servers, in seconds (README). */
  private val preloadSetup = 4.5

  /**
   * The weft rows that are not peers (another shape of weft's client, or its classic protocol):
   * `--full` measures them, quick mode leaves them out. `weftDirect` (setget's direct-style
   * spelling) is not a peer either (no `weft*` row is, [[Targets.isPeer]]) and no target judges
   * it, but quick mode measures it: the report shows both spellings of setget.
   */
  private val weftVariants: Set[Contender] = Set(weftInScope, weftClassic)

  private val weftVariantsWhy =
    "weft in another shape and with its classic protocol: not peers, no target uses them"

  /**
   * A seed 004 workload: `cls` in `weft.bench.memcached` at `threads` JMH threads in quick mode
   * (and `fullOnlyThreads` more in `--full`), the seed's six published figures at 32 threads
   * (ascii and binary of each client; the seed's folsom serialised, so only its ascii figure
   * has a row of ours), weft ahead of every peer by 1.2x at every thread count (the verdicts
   * are per thread count, [[Targets.check]]); `setup` is a fork's server set-up for the
   * prediction, and weft's variants (not peers) are full-mode rows.
   */
  private def seed004(
      id: String,
      title: String,
      seedName: String,
      cls: String,
      setup: Double,
      figures: Seq[Double],
      threads: Seq[Int],
      fullOnlyThreads: Seq[Int],
      weftRows: Seq[Contender],
      xmem: Seq[Contender],
      setupExtra: String,
      sourceExtra: String,
      notes: String
  ): Workload =
    val names = Seq(
      "spymemcached ascii" -> Some(spyAscii),
      "spymemcached binary" -> Some(spyBinary),
      "xmemcached ascii" -> Some(xmem.head),
      "xmemcached binary" -> Some(xmem.last),
      "folsom ascii (serialising)" -> Some(folsomSerialAscii),
      "folsom binary (serialising)" -> None
    )
    Workload(
      id = id,
      title = title,
      seed = s"seed 004, MemcachedClientsBenchmark $seedName",
      runner = benchClass(cls, measured = 20, setup),
      unit = "ops/s",
      higherIsBetter = true,
      threads = threads,
      fullOnlyThreads = fullOnlyThreads,
      threadSetup = threadSetup + setupExtra,
      contenders = weftRows ++ Seq(spyAscii, spyBinary) ++ xmem ++
        Seq(folsomAscii, folsomBinary, folsomSerialAscii),
      published = names.zip(figures).map { case ((label, ours), score) =>
        Published(label, 32, score, "ops/s", ours)
      },
      publishedSource = seedSource + sourceExtra,
      targets = Seq(Target.AheadOfPeers(1.2)),
      requires = Seq(server),
      notInQuickContenders = weftVariants,
      quickWhy = weftVariantsWhy,
      notes = s"${notes}Contenders: $contenders $fairness"
    )

  /** `memcached-setget`: 4 x (set then get), the seed's "async" benchmark. */
  val setGet: Workload = seed004(
    id = "memcached-setget",
    title = "4 x (set key_i = key_i + \"value\", TTL 7200 s, then get it), keys key0..key3",
    seedName = "async",
    cls = "MemcachedSetGetBench",
    setup = serverSetup,
    figures = Seq(40064, 40747, 44586, 42226, 30478, 28221),
    // the seed's TODO: 1, 4, 32 and 128 callers; quick mode the two middle ones
    threads = Seq(4, 32),
    fullOnlyThreads = Seq(1, 128),
    weftRows = Seq(weft, weftDirect, weftInScope, weftClassic),
    xmem = Seq(xmemAsciiUnmerged, xmemBinaryUnmerged),
    setupExtra = " weft (the judged row) issues its eight requests as spymemcached and folsom " +
      "do: four client.pipelined.set then four client.pipelined.get, each returning a future " +
      "at once, then awaits all; weftDirect runs four futures, each a direct client.set then " +
      "client.get (its get waits for its set's reply); weftInScope is weft's pipelined op, " +
      "100 per Async.blocking.",
    sourceExtra = "",
    notes = "The judged row is weft: it sends the eight requests back to back and waits once, " +
      "the shape of the peers' asynchronous rows (the seed: \"set followed by a get in async " +
      "mode where possible\"), so the comparison is like for like. weftDirect is the " +
      "direct-style spelling users write by default (client.set, client.get in a future per " +
      "key): shown beside it, not judged and not a peer. Every count of callers (4 and 32; " +
      "1 and 128 in --full) is judged on its own. " +
      "xmemcached runs here with its get merging off only (xmemAsciiUnmerged, " +
      "xmemBinaryUnmerged): with every thread on four keys its default merge sends a key once " +
      "for all the gets of it queued together, and the server counted about a fifth fewer " +
      "gets than were called, which the stats check fails. "
  )

  /** `memcached-multiget-50`: one multiget of 50 of 5000 preloaded keys. */
  val multiGet50: Workload = seed004(
    id = "memcached-multiget-50",
    title = "one multiget of 50 distinct keys out of 5000 preloaded",
    seedName = "multiget",
    cls = "MemcachedMultiGet50Bench",
    setup = preloadSetup,
    figures = Seq(1816, 2521, 1800, 2066, 1863, 2145),
    threads = Seq(32),
    fullOnlyThreads = Seq(1, 4, 128),
    weftRows = Seq(weft, weftInScope, weftClassic),
    // the merged rows (xmemcached's default) judged; the unmerged ones full-mode rows
    xmem = Seq(xmemAscii, xmemBinary, xmemAsciiUnmerged, xmemBinaryUnmerged),
    setupExtra = "",
    sourceExtra = "; each op shuffled the 5000 keys",
    notes = "The seed shuffled all 5000 keys per op (tens of microseconds, more than a fast " +
      "client's multiget); here each thread cycles through 256 random 50-key subsets drawn " +
      "before measuring, so the shuffle is not measured. weft's multiget is one call (one " +
      "quiet mg per key, written back to back), judged at every count of callers (32; 1, 4 " +
      "and 128 in --full). Quick runs measure xmemcached with " +
      "its default get merging only; its unmerged rows (slower, so never the best peer) are in " +
      "full runs. "
  ).copy(
    notInQuickContenders = weftVariants ++ Set(xmemAsciiUnmerged, xmemBinaryUnmerged),
    quickWhy = weftVariantsWhy + "; xmemcached with its default get merging stays, unmerged " +
      "is slower, so never the best peer the target compares with"
  )

  private val sweepContenders =
    "weft, spyAscii/spyBinary, xmemAscii/xmemBinary (get merging on, its default: each thread " +
      "reads its own key), folsomAscii/folsomBinary (string client). spymemcached and " +
      "xmemcached gzip values above 16 KiB by default; here they store the UTF-8 bytes as they " +
      "are, like weft and folsom, so every client moves and stores the same bytes. "

  /** `memcached-value-<size>`: set then get one key per thread with values of `bytes`. */
  private def valueSize(
      id: String,
      cls: String,
      label: String,
      inQuick: Boolean,
      setup: Double = serverSetup
  ) = Workload(
    id = s"memcached-value-$id",
    title = s"set then get one key per thread, $label values",
    seed = "beyond seed 004: value-size sweep",
    runner = benchClass(cls, measured = 10, setup),
    notInQuick = !inQuick,
    quickWhy = if inQuick then ""
    else
      "the value sweep has no target, and the 1000 KiB size is the longest of the memcached " +
        "workloads (xmemcached's rows)"
    ,
    unit = "ops/s",
    higherIsBetter = true,
    threads = Seq(8),
    threadSetup = "8 JMH platform threads share one client (one connection) per fork; each " +
      "thread owns one key and one value of random letters; one op = set it, then get it " +
      "and compare the whole value (weft: one Async.blocking per op, in it client.pipelined.set " +
      "then client.pipelined.get, then both awaited; spymemcached and folsom send the set and " +
      "the get at once likewise; xmemcached blocks on each).",
    contenders =
      Seq(weft, spyAscii, spyBinary, xmemAscii, xmemBinary, folsomAscii, folsomBinary),
    requires = Seq(server),
    notes = s"Contenders: $sweepContenders$fairness"
  )

  /**
   * The value-size sweep: 10 B, 1 KiB, 100 KiB and 1000 KiB (under the 1 MiB item limit). The
   * sweep has no target, so quick mode leaves it to `--full` (about 9 minutes of the quick run
   * with all four sizes; 1000 KiB costs the most of any memcached workload, xmemcached's rows).
   */
  val valueSizes: Seq[Workload] = Seq(
    valueSize("10b", "MemcachedValue10B", "10-byte", inQuick = false),
    valueSize("1kib", "MemcachedValue1KiB", "1 KiB", inQuick = false),
    valueSize("100kib", "MemcachedValue100KiB", "100 KiB", inQuick = false),
    // xmemcached's two rows take minutes at this size, well beyond their iterations: spread
    // over the seven rows' forks for the prediction (shootout/README.md).
    valueSize(
      "1000kib",
      "MemcachedValue1000KiB",
      "1000 KiB (1,024,000-byte)",
      inQuick = false,
      setup = 18
    )
  )

  /** `memcached-cluster-3`: multigets over three servers placed with Ketama by every client. */
  val cluster3: Workload = Workload(
    id = "memcached-cluster-3",
    title = "one multiget of 50 of 5000 keys spread over 3 servers with Ketama",
    seed = "beyond seed 004: a 3-server Ketama cluster",
    runner = benchClass("MemcachedCluster3Bench", measured = 10, preloadSetup),
    notInQuick = true,
    quickWhy = "its multiget regime is memcached-multiget-50's (quick mode's); its target is " +
      "judged in --full and under --only",
    unit = "ops/s",
    higherIsBetter = true,
    threads = Seq(32),
    threadSetup = threadSetup,
    contenders = Seq(weft, spyAscii, spyBinary, xmemAscii, xmemBinary),
    targets = Seq(Target.AheadOfPeers(1.2)),
    requires = Seq(server),
    notes = "Three fresh servers per fork (the flags below). weft, spymemcached (KETAMA_HASH " +
      "consistent locator) and xmemcached (KetamaMemcachedSessionLocator, nginx-compatible " +
      "names) all name the nodes `127.0.0.1:<port>`, so they place every key alike; folsom has " +
      "no Ketama and is not here. Verified per fork: every value read back, the servers' summed " +
      "stats deltas (cmd_get = get_hits = 50 x ops), and at teardown each of the 5000 keys is " +
      "on exactly the server an independent Ketama (libketama's algorithm) names for it. " +
      "Contenders: weft, spyAscii/spyBinary, xmemAscii/xmemBinary (get merging on, its " +
      s"default). $fairness"
  )

  /** The memcached workloads, in report order. */
  val all: Seq[Workload] =
    Seq(setGet, multiGet50) ++ MemcachedOpenLoopWorkloads.openLoops ++ valueSizes :+ cluster3
