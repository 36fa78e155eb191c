package weft.shootout

import WorkloadSupport.jmh

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
      "Async.blocking (a virtual thread) and runs its calls there; spymemcached and folsom: " +
      "asynchronous calls, then the thread waits for all; xmemcached: blocking calls."

  private val fairness =
    "Per JMH fork a fresh memcached on a free 127.0.0.1 port, flags `-U 0 -l 127.0.0.1 -t 2 " +
      "-m 64 -c 1024` (`-u root` as root), ready once it answers `version`, killed at teardown. " +
      "Every client: one connection, TCP_NODELAY, UTF-8 values (folsomSerialAscii: Java " +
      "serialisation, the seed's folsom), per-call timeouts of 60 s (a timed-out call fails the " +
      "benchmark), its default optimisations kept (spymemcached and xmemcached merge queued " +
      "gets; folsom batches). Every value read back is checked, and at teardown the server's " +
      "`stats` deltas (cmd_set, cmd_get, get_hits) must equal ops x requests per op, or the " +
      "benchmark FAILS. The server shares the 2 cores with the client; its CPU time per " +
      "measured op is in the table \"the server's side\" at the end of the report."

  private val contenders =
    "weft (meta protocol), spyAscii/spyBinary (spymemcached 2.12.3), xmemAscii/xmemBinary " +
      "(xmemcached 2.4.9, its get merging on), xmemAsciiUnmerged/xmemBinaryUnmerged (merging " +
      "off: the merge sends a key once for every get of it queued together, so the server does " +
      "fewer gets than were called and the stats check fails the merged rows), folsomAscii/folsomBinary (folsom 1.21.0 string client), " +
      "folsomSerialAscii (folsom's serialising client)."

  /** `memcached-setget`: 4 x (set then get), the seed's "async" benchmark. */
  val setGet: Workload = Workload(
    id = "memcached-setget",
    title = "4 x (set key_i = key_i + \"value\", TTL 7200 s, then get it), keys key0..key3",
    seed = "seed 004, MemcachedClientsBenchmark async",
    runner = Runner.Jmh(
      Seq(jmh("^weft\\.bench\\.memcached\\.MemcachedSetGetBench\\.")),
      Mode.Throughput,
      full = Params(5, "1s", 20, "1s", 1)
    ),
    unit = "ops/s",
    higherIsBetter = true,
    threads = Seq(32),
    fullOnlyThreads = Seq(128),
    threadSetup = threadSetup + " weft runs its four set-then-get pairs as four futures " +
      "(each get waits for its set); spymemcached and folsom send all eight requests at once.",
    published = Seq(
      Published("spymemcached ascii", 32, 40064, "ops/s", Some("spyAscii")),
      Published("spymemcached binary", 32, 40747, "ops/s", Some("spyBinary")),
      Published("xmemcached ascii", 32, 44586, "ops/s", Some("xmemAscii")),
      Published("xmemcached binary", 32, 42226, "ops/s", Some("xmemBinary")),
      Published("folsom ascii (serialising)", 32, 30478, "ops/s", Some("folsomSerialAscii")),
      Published("folsom binary (serialising)", 32, 28221, "ops/s", None)
    ),
    publishedSource = seedSource,
    targets = Seq(Target.AheadOfPeers(1.2)),
    requires = Seq(server),
    notes = s"Contenders: $contenders $fairness"
  )

  /** `memcached-multiget-50`: one multiget of 50 of 5000 preloaded keys. */
  val multiGet50: Workload = Workload(
    id = "memcached-multiget-50",
    title = "one multiget of 50 distinct keys out of 5000 preloaded",
    seed = "seed 004, MemcachedClientsBenchmark multiget",
    runner = Runner.Jmh(
      Seq(jmh("^weft\\.bench\\.memcached\\.MemcachedMultiGet50Bench\\.")),
      Mode.Throughput,
      full = Params(5, "1s", 20, "1s", 1)
    ),
    unit = "ops/s",
    higherIsBetter = true,
    threads = Seq(32),
    threadSetup = threadSetup,
    published = Seq(
      Published("spymemcached ascii", 32, 1816, "ops/s", Some("spyAscii")),
      Published("spymemcached binary", 32, 2521, "ops/s", Some("spyBinary")),
      Published("xmemcached ascii", 32, 1800, "ops/s", Some("xmemAscii")),
      Published("xmemcached binary", 32, 2066, "ops/s", Some("xmemBinary")),
      Published("folsom ascii (serialising)", 32, 1863, "ops/s", Some("folsomSerialAscii")),
      Published("folsom binary (serialising)", 32, 2145, "ops/s", None)
    ),
    publishedSource = seedSource + "; each op shuffled the 5000 keys",
    targets = Seq(Target.AheadOfPeers(1.2)),
    requires = Seq(server),
    notes = "The seed shuffled all 5000 keys per op (tens of microseconds, more than a fast " +
      "client's multiget); here each thread cycles through 256 random 50-key subsets drawn " +
      s"before measuring, so the shuffle is not measured. Contenders: $contenders $fairness"
  )

  /** The memcached workloads, in report order. */
  val all: Seq[Workload] = Seq(setGet, multiGet50)
