package weft.shootout

import WorkloadSupport.{jmh, seed002Full, seed002Source}
import Contender.*

/** The IO workloads (seed 002's file table and TCP; benchmarks in `weft.bench.io`). */
object IoWorkloads:

  /** The IO workloads, in report order. */
  val all: Seq[Workload] =
    def file(id: String, cls: String, title: String, published: Seq[Published]) = Workload(
      id = id,
      title = title,
      seed = "seed 002, Performance / file IO",
      runner =
        Runner.Jmh(Seq(jmh(s"^weft\\.bench\\.io\\.$cls\\.")), Mode.AverageTime, full = seed002Full),
      unit = "ns/op",
      higherIsBetter = false,
      threads = Seq(1),
      threadSetup =
        s"see weft.bench.io.$cls: every contender loops on one virtual thread; files on /dev/shm when present",
      published = published,
      contenders = Seq(weft, jdkFiles, asyncChannel),
      publishedSource = if published.isEmpty then "" else seed002Source,
      targets = Seq(Target.WithinFactorOf(jdkFiles, if id.endsWith("4b") then 1.3 else 1.1)),
      notInQuickContenders = Set(asyncChannel),
      quickWhy = "the design ADR 0002 rejected, not a peer"
    )
    Seq(
      file(
        "file-read-4b",
        "FileRead4bBench",
        "read a 4-byte file as a string",
        Seq(
          Published("PIO.readString (Linux)", 1, 17100, "ns/op", Some(weft)),
          Published("Files.readString (Linux)", 1, 4000, "ns/op", Some(jdkFiles))
        )
      ),
      file(
        "file-write-4b",
        "FileWrite4bBench",
        "write a 4-byte string to a file",
        Seq(
          Published("PIO.writeString (Linux)", 1, 19000, "ns/op", Some(weft)),
          Published("Files.writeString (Linux)", 1, 6000, "ns/op", Some(jdkFiles))
        )
      ),
      file(
        "file-read-40mb",
        "FileRead40mbBench",
        "read a 40 MB file as a string",
        Seq(
          Published("PIO.readString (Linux)", 1, 28739000, "ns/op", Some(weft)),
          Published("Files.readString (Linux)", 1, 12522000, "ns/op", Some(jdkFiles))
        )
      ),
      file(
        "file-write-40mb",
        "FileWrite40mbBench",
        "write a 40 MB string to a file",
        Seq(
          Published("PIO.writeString (Linux)", 1, 17027000, "ns/op", Some(weft)),
          Published("Files.writeString (Linux)", 1, 17118000, "ns/op", Some(jdkFiles))
        )
      ),
      Workload(
        id = "tcp-echo-rtt",
        title = "TCP echo round trip on loopback",
        seed = "weft's own (no seed figure)",
        runner = Runner.Jmh(
          Seq(jmh("^weft\\.bench\\.io\\.TcpEchoRttBench\\.")),
          Mode.AverageTime,
          full = seed002Full
        ),
        unit = "ns/op",
        higherIsBetter = false,
        threads = Seq(1),
        threadSetup =
          "see weft.bench.io.TcpEchoRttBench: client loop on one virtual thread, echo server on virtual threads",
        contenders = Seq(weft, jdkSocketChannel),
        notes = "One connection: weft's best case. tcp-echo-concurrent measures many at once."
      ),
      Workload(
        id = "tcp-echo-concurrent",
        title = "200 connections at once, each echoing 50 lines over loopback",
        seed = "weft's own (no seed figure)",
        runner = Runner.Jmh(
          Seq(jmh("^weft\\.bench\\.io\\.TcpEchoConcurrentBench\\.")),
          Mode.AverageTime,
          // One op is a whole round (about 100 ms): 1 s iterations hold a few of them. Four
          // forks (`Params.quickManyForks`): with two, the verdict flipped across three runs.
          quick = Params(2, "1s", 3, "1s", 4),
          full = seed002Full
        ),
        unit = "ns/op",
        higherIsBetter = false,
        threads = Seq(1),
        threadSetup =
          "see weft.bench.io.TcpEchoConcurrentBench: weft a Future per client in one " +
            "Async.blocking on a virtual thread, the JDK a virtual thread per client with a blocking Socket; the " +
            "same echo server (virtual threads); one op = the whole round of 200 x 50 lines",
        contenders = Seq(weft, jdkSocket),
        targets = Seq(Target.WithinFactorOf(jdkSocket, 1.1)),
        notes = "The target (at most 1.1x the JDK's time) is the file workloads' large-transfer " +
          "target, set here by the shootout: no seed gives one for TCP."
      )
    )
