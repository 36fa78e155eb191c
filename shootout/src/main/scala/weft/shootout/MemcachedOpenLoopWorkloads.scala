package weft.shootout

import Contender.*

/**
 * The open-loop latency workloads of the memcached clients (`weft.bench.memcached.OpenLoop`,
 * one harness run for the three): get latency at the highest offered load every contender
 * sustains, each client through its blocking get and, where it has one, its asynchronous get.
 */
object MemcachedOpenLoopWorkloads:

  /**
   * Every client's blocking row, then its asynchronous spelling beside it where it has one
   * (xmemcached has none: every get of its API blocks).
   */
  val openLoopContenders: Seq[Contender] = Seq(
    weft,
    weftPipelined,
    spyAscii,
    spyAsciiAsync,
    spyBinary,
    spyBinaryAsync,
    xmemAsciiUnmerged,
    xmemBinaryUnmerged,
    folsomAscii,
    folsomAsciiAsync,
    folsomBinary,
    folsomBinaryAsync
  )

  /**
   * The row the p99 target judges: weft's asynchronous spelling, fixed before measuring (see
   * the notes for why).
   */
  val judged: Contender = weftPipelined

  private val judging =
    "Judged: weftPipelined against every peer row, blocking and asynchronous, so against " +
      "each peer's best spelling; weft's blocking row is shown beside it (the ratios are to " +
      "it, as everywhere). The judged row is fixed before measuring because picking the " +
      "better of weft's two rows after a run would bias the verdict towards MET; it is the " +
      "pipelined one because a user choosing a client for its tail latency chooses a way of " +
      "calling it too, and the question is whether weft's way for sending without a thread " +
      "per request beats every other client's best. Pairing blocking with blocking and " +
      "asynchronous with asynchronous was the alternative; it would leave xmemcached out of " +
      "one half and let a peer whose asynchronous API is its strength be judged on the API " +
      "its users avoid. "

  /**
   * `memcached-openloop-<metric>`: one percentile of get latency at the highest offered load
   * every contender sustained, with a 95% interval over the harness's blocks.
   */
  def openLoop(metric: String, percentile: String, targets: Seq[Target]): Workload = Workload(
    id = s"memcached-openloop-$metric",
    title =
      s"get latency, $percentile, open loop at the highest offered load every client sustains",
    seed = "beyond seed 004: latency from the intended send time",
    runner = Runner.External(
      Module.Bench,
      s"weft.bench.memcached.OpenLoop --contenders ${openLoopContenders.map(_.id).mkString(",")}",
      Some(metric),
      // Quick: 12 contenders, each a fresh JVM, 3 loads x 5 blocks, each block a fresh server
      // and client and a window of 20,000 gets (shootout/README.md, "Quick mode, measured").
      seconds = 330
    ),
    unit = "µs",
    higherIsBetter = false,
    threads = Seq(1),
    threadSetup =
      "one fresh JVM (the benchmark JVM flags) per contender; per load 5 independent blocks, " +
        "each a fresh server and a freshly opened client, a 0.3 s closed-loop warm-up (2 s for " +
        "the JVM's first block), then a window of 20,000 gets of random keys (key0..key999) " +
        "sent by one platform thread at fixed intended times. Blocking rows: each get on its " +
        "own virtual thread calling the client's blocking get (weft: Async.blocking per get). " +
        "Asynchronous rows: the sending thread calls the client's asynchronous get " +
        "(spymemcached asyncGet with a completion listener, folsom's CompletionStage, weft's " +
        "client.pipelined.get inside one scope around the window) and the client's callback " +
        "records the reply. Latency from the intended send time to the reply. Offered loads " +
        "10,000, 20,000 and 40,000 gets/s (quick; full: 5,000 to 80,000 gets/s, 8 blocks of " +
        "at least 40,000 gets and 2 s; smoke: 200 gets/s, 2 blocks of 100 gets).",
    contenders = openLoopContenders,
    targets = targets,
    requires = Seq(MemcachedWorkloads.server),
    judgedAs = judged,
    notes = "Open loop: a request is due at start + i / rate whether or not earlier ones " +
      "completed, so a client that falls behind shows in the latency (no coordinated " +
      "omission). A window completed when 95% of its gets completed within it, all within 1 s " +
      "after it, and no call failed; a load is sustained when more than half of its blocks' " +
      "windows completed and the median of their p99s is at most 10 ms, the latency ceiling " +
      "(the majority and the median so that one block hit by a stall of the shared machine " +
      "widens the interval instead of ending the ladder): a client " +
      "that keeps up only by queueing for tens of milliseconds does not serve that load, and " +
      "comparing tails there compares queues. The scores are at the highest load every " +
      "contender sustained (a contender that sustained none of the loads is FAILED, saying " +
      "why, and does not hold the load down for the others); each is the geometric mean of its blocks' percentiles, with a 95% " +
      "Student-t interval on their logarithms (latencies spread by factors: on the arithmetic " +
      "mean the low ends went below zero) over the blocks, so the p99 target gets a " +
      "verdict. Blocks restart the server " +
      "and reopen the client (independent connections, queues and server memory) but share " +
      "the JVM and its compiled code: a JVM per block would cost a start and a warm-up per " +
      "block, beyond the quick run's budget. Each contender's full ladder (every load, p50, " +
      "p99, p99.9 with their spread over blocks, max, server CPU per get) and the " +
      "latency-by-percentile chart are in the details at the end of the report. " + judging +
      "Every get is checked (a wrong value FAILS the contender), and each block's server " +
      "cmd_get and get_hits deltas must lie between the gets sent and the gets sent less those " +
      "the client failed (a failed call makes its window not completed: folsom refuses past " +
      "1000 outstanding requests, its default). xmemcached with get merging off (its merge " +
      "sends a key once for several gets of it, which the check fails), and blocking only. " +
      "Percentiles are upper bounds of 1.6%-wide histogram buckets."
  )

  /**
   * The open-loop latency workloads: p50, p99 (with the target), p99.9. Built on each call
   * (equal each time) rather than held in a `val`: they name [[MemcachedWorkloads.server]]
   * while `MemcachedWorkloads.all` names them, and a `val` on each side of that cycle would
   * see the other side's still unset (a `lazy val` deadlocks on it instead).
   */
  def openLoops: Seq[Workload] = Seq(
    openLoop("p50", "median", Nil),
    openLoop("p99", "p99", Seq(Target.AtMostOfBestPeer(0.8))),
    openLoop("p999", "p99.9", Nil)
  )
