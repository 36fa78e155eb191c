package weft.shootout

import WorkloadSupport.{jmh, seed002Full, seed002Source}
import Contender.*

/** The channel workloads (seed 002; benchmarks in `weft.bench.channels`). */
object ChannelWorkloads:

  /** What the seed's lock-based `SyncChannel` reached on its author's laptop, ops/s. */
  private val SeedSyncChannel: Double = 319371.0

  /** The absolute target for the one-sender, one-receiver workloads: 10x the seed's. */
  val TenTimesSeed: Double = 10 * SeedSyncChannel

  private def channel(
      id: String,
      cls: String,
      title: String,
      published: Seq[Published] = Nil,
      oneToOne: Boolean = true,
      quick: Params = Params.quick,
      contenders: Seq[Contender] = Seq(weft, jox, ox, juc)
  ) =
    Workload(
      id = id,
      title = title,
      seed = "seed 002, Performance / channels",
      runner = Runner.Jmh(
        Seq(jmh(s"^weft\\.bench\\.channels\\.$cls\\.")),
        Mode.Throughput,
        quick = quick,
        full = seed002Full
      ),
      unit = "ops/s",
      higherIsBetter = true,
      threads = Seq(1),
      threadSetup = s"see weft.bench.channels.$cls",
      contenders = contenders,
      published = published,
      publishedSource = if published.isEmpty then "" else seed002Source,
      // at least as fast as jox; one to one, also at least 10x the seed's SyncChannel
      targets = Seq(Target.WithinFactorOf(jox, 1.0)) ++
        (if oneToOne then Seq(Target.AtLeast(TenTimesSeed)) else Nil)
    )

  /** The channel workloads, in report order. */
  val all: Seq[Workload] = Seq(
    channel(
      "channel-sync",
      "ChannelSyncBench",
      "one sender, one receiver over a rendezvous channel",
      Seq(Published("SyncChannel (Linux)", 1, SeedSyncChannel, "ops/s", Some(weft)))
    ),
    channel(
      "channel-buffered-16",
      "ChannelBuffered16Bench",
      "one sender, one receiver over a buffered channel of 16",
      Seq(Published("BufferedChannel(1) (Linux), buffer 1 not 16", 1, 308286, "ops/s", None)),
      // Bimodal across JVMs, for jox as for weft: see `Params.quickManyForks`.
      quick = Params.quickManyForks
    ),
    channel(
      "channel-buffered-100",
      "ChannelBuffered100Bench",
      "one sender, one receiver, buffer 100"
    ),
    channel(
      "channel-unbounded",
      "ChannelUnboundedBench",
      "one sender, one receiver, unbounded channel"
    ),
    channel(
      "channel-chain-1000",
      "ChannelChain1000Bench",
      "a value passed along a chain of 1000 channels",
      oneToOne = false
    ),
    channel(
      "select-2",
      "Select2Bench",
      "select over two channels",
      oneToOne = false,
      contenders = Seq(weft, jox, ox)
    )
  )
