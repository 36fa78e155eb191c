package weft.shootout
import Contender.*

/** The memory workloads (seed 003; an external harness in `weft.bench.memory`). */
object MemoryWorkloads:

  private def memory(id: String, million: Boolean) = Workload(
    id = id,
    title = if million then
      "heap per pending weft future and bare virtual thread, 1,000,000 of them"
    else "heap retained per pending operation, 100,000 of them",
    seed = "seed 003 (ask vs tell: jmap -histo:live of 100,000 pending operations)",
    runner = Runner.External(
      Module.Bench,
      if million then "weft.bench.memory.MemoryShootout --million"
      else "weft.bench.memory.MemoryShootout",
      // 8 contenders x 4 JVMs, 2 x 3 JVMs: as long as a quick run on an idle machine took
      // (shootout/README.md, "Quick mode, measured")
      seconds = if million then 40 else 95
    ),
    contenders = if million then Seq(weft, memoryVirtualThread)
    else
      Seq(
        weft,
        weftTell,
        memoryVirtualThread,
        memoryScalaFuture,
        pekkoTell,
        catsEffectFiber,
        zioFiber,
        oxFork
      )
    ,
    unit = "bytes/op",
    higherIsBetter = false,
    threads = Seq(1),
    threadSetup =
      "fresh JVMs per contender (quick: 4 at 100,000, 3 at 1,000,000; full: 10 and 5), each " +
        "with the same fixed 3 GiB heap (ParallelGC): warm-up cycles, full GC, baseline; N " +
        "operations made pending; full GC; (used - baseline) / N. Histograms: every JVM's " +
        "figure and the first JVM's top five classes per contender, and the seed's own " +
        "histogram, at the end of the report.",
    published = if million then Nil
    else
      Seq(
        Published("Future (seed's histogram rows)", 1, 192.0, "bytes/op", Some(memoryScalaFuture)),
        Published("tell (seed's histogram rows)", 1, 48.0, "bytes/op", Some(pekkoTell))
      )
    ,
    publishedSource = if million then ""
    else "seed 003: JDK 8, Akka, Scala 2.11, other hardware; only the rows of ~100k instances",
    // The seed's 1.2x, then the tighter 1.1x set since.
    targets = Seq(
      Target.WithinFactorOf(memoryVirtualThread, 1.2),
      Target.WithinFactorOf(memoryVirtualThread, 1.1)
    ),
    notes = "pekko-tell and weft-tell queue the same message object (one 24-byte `Work`). " +
      "The score is the mean over the JVMs and the interval Student's t over them: the figure " +
      "moves between JVMs with the JIT's state (a virtual thread's stack chunk holds its " +
      "frames), hardly within one. The heap is sized for a million operations of ~1 KB: in " +
      "1 GiB, weft's future ran out of memory in one JVM and fit in another. A contender " +
      "that fails in any JVM is FAILED. What a pending weft future holds beyond a bare " +
      "virtual thread (class histograms at the end of the report): the future itself (48 " +
      "bytes) and its await's waiter (40) with its node on the promise's list of awaiters " +
      "(24), where the virtual thread's latch queues one 32-byte node; the rest, and most of " +
      "the spread between JVMs, is the stack chunk."
  )

  /** The memory workloads, in report order. */
  val all: Seq[Workload] =
    Seq(memory("memory-pending-100k", million = false), memory("memory-pending-1m", million = true))
