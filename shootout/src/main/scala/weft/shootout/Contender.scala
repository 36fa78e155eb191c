package weft.shootout

/**
 * Every contender of the shootout, declared once. A contender is a row of a workload's table:
 * for a JMH workload the `@Benchmark` method of that name in the workload's bench class, for
 * a harness the name it writes in its JSON (`harnessName`, when that is not a Scala
 * identifier). Workloads name contenders by these values, never by strings; `ContendersSuite`
 * checks every workload's contenders against its bench class's `@Benchmark` methods.
 *
 * Adding a contender: one case here, then in each workload it joins one entry in its
 * `contenders` and one `@Benchmark` method of that name in the bench class.
 */
enum Contender(val library: Library, harnessName: String = ""):
  /** weft, as its users write it: the baseline of every ratio. */
  case weft extends Contender(Library.Weft)

  /** weft entering its scope on a new virtual thread per op (`compose-3`). */
  case weftOnVirtualThread extends Contender(Library.Weft)

  /** weft doing many ops in one scope: the scope's entry left out; informational. */
  case weftInScope extends Contender(Library.Weft)

  /** weft's keyed executor through its `run` method; informational. */
  case weftRun extends Contender(Library.Weft)

  /** weft's keyed executor with tasks sleeping by `Thread.sleep`; informational. */
  case weftThreadSleep extends Contender(Library.Weft)

  /** weft with the system's timer slack, as every peer has (docs/perf/time.md). */
  case weftDefaultSlack extends Contender(Library.Weft)

  /** weft's memcached client on its classic text protocol; not a peer. */
  case weftClassic extends Contender(Library.Weft)

  /**
   * weft's memcached client in its direct style (a future per key, each a `set` then a `get`
   * awaited in turn), beside the judged row that pipelines its requests; not a peer.
   */
  case weftDirect extends Contender(Library.Weft)

  /** weft's group and future without the timer (`TimeoutFast`, a diagnostic row). */
  case weftGroupFutureOnly extends Contender(Library.Weft)

  /** weft's future carrying a message, as an actor's tell does (memory harness). */
  case weftTell extends Contender(Library.Weft, "weft-tell")

  /** A bare virtual thread handing its value back through a volatile field and a park. */
  case virtualThread extends Contender(Library.Jdk)

  /** A bare virtual thread awaited with `Thread.join`: the older floor. */
  case virtualThreadJoin extends Contender(Library.Jdk)

  /** A bare virtual thread in the memory harness. */
  case memoryVirtualThread extends Contender(Library.Jdk, "virtual-thread")

  /** Two virtual threads spinning on a volatile flag: the floor for channels. */
  case ideal extends Contender(Library.Jdk)

  /** Three virtual threads racing to set an `AtomicBoolean` the caller spins on. */
  case spinLock extends Contender(Library.Jdk)

  /** The body with no time limit at all: the floor for `withTimeout`. */
  case noTimeout extends Contender(Library.Jdk)

  /** The JDK's own facility for the workload (a fair `Semaphore`). */
  case jdk extends Contender(Library.Jdk)

  /** A one-thread `ScheduledThreadPoolExecutor` removing cancelled tasks. */
  case jdkScheduledExecutor extends Contender(Library.Jdk)

  /** `java.nio.file.Files` on a virtual thread. */
  case jdkFiles extends Contender(Library.Jdk)

  /** `AsynchronousFileChannel` completing a weft future: the design ADR 0002 rejected. */
  case asyncChannel extends Contender(Library.Jdk)

  /** A blocking `java.net.Socket` per client on virtual threads. */
  case jdkSocket extends Contender(Library.Jdk)

  /** A blocking `SocketChannel` on a virtual thread. */
  case jdkSocketChannel extends Contender(Library.Jdk)

  /** A `java.util.concurrent` queue playing the channel. */
  case juc extends Contender(Library.Jdk)

  /** A `ConcurrentHashMap` of `CompletableFuture`s: single-flight written by hand. */
  case concurrentHashMap extends Contender(Library.Jdk)

  /** The same map, each future computed by the caller that installed it; informational. */
  case concurrentHashMapInline extends Contender(Library.Jdk)

  /** `scala.concurrent.Future` on the global execution context. */
  case scalaFuture extends Contender(Library.ScalaStd)

  /** `scala.concurrent.Future` in the memory harness. */
  case memoryScalaFuture extends Contender(Library.ScalaStd, "scala-future")

  /** `Future.sequence` then `Await.result` (Scala 2.13). */
  case futureSequence extends Contender(Library.ScalaStd)

  /** A for-comprehension over futures then `Await.result` (Scala 2.13). */
  case forComprehension extends Contender(Library.ScalaStd)

  /** A `Future` chain per key: the keyed executor written by hand. */
  case futureChain extends Contender(Library.ScalaStd)

  /** scala-async's `async`/`await` (Scala 2.13, `-Xasync`). */
  case asyncAwait extends Contender(Library.ScalaAsync)

  /** weft awaiting the winner directly: what a race costs beyond it. */
  case awaitWinner extends Contender(Library.Weft)

  /** ox, as its users write it. */
  case ox extends Contender(Library.Ox)

  /** ox's forks joined on the caller without a scope; informational. */
  case oxNoScope extends Contender(Library.Ox)

  /** An ox fork in the memory harness. */
  case oxFork extends Contender(Library.Ox, "ox-fork")

  /** jox's channels. */
  case jox extends Contender(Library.Jox)

  /** cats-effect, as its users write it. */
  case catsEffect extends Contender(Library.CatsEffect)

  /** A cats-effect fiber in the memory harness. */
  case catsEffectFiber extends Contender(Library.CatsEffect, "cats-effect-fiber")

  /** cats-effect `Semaphore` buckets, each task's effect sequenced (seed 001's applyF). */
  case catsApplyFSequenced extends Contender(Library.CatsEffect)

  /** cats-effect `Semaphore` buckets run concurrently, the seed's CPU x 5 buckets. */
  case catsApplyFConcurrent extends Contender(Library.CatsEffect)

  /** As [[catsApplyFConcurrent]] with one bucket per key, as weft has one queue per key. */
  case catsApplyFConcurrentPerKey extends Contender(Library.CatsEffect)

  /** ZIO, as its users write it. */
  case zio extends Contender(Library.Zio)

  /** A ZIO fiber in the memory harness. */
  case zioFiber extends Contender(Library.Zio, "zio-fiber")

  /** Pekko bucket actors, the seed's CPU x 5 buckets. */
  case pekkoActors extends Contender(Library.Pekko)

  /** Pekko actors with one bucket per key. */
  case pekkoActorsPerKey extends Contender(Library.Pekko)

  /** A Pekko tell of the same message weft's tell carries (memory harness). */
  case pekkoTell extends Contender(Library.Pekko, "pekko-tell")

  /** fs2's `Stream` on cats-effect's `IO`, as its users write it. */
  case fs2 extends Contender(Library.Fs2)

  /** ZIO Streams' `ZStream`, as its users write it. */
  case zioStreams extends Contender(Library.ZioStreams)

  /** Pekko Streams, materialised on an actor system made once per trial. */
  case pekkoStreams extends Contender(Library.PekkoStreams)

  /** A plain `scala.collection.Iterator` pipeline: the floor of a fused stream. */
  case iterator extends Contender(Library.ScalaStd)

  /** resilience4j's `AtomicRateLimiter`. */
  case resilience4j extends Contender(Library.Resilience4j)

  /** spymemcached, text protocol. */
  case spyAscii extends Contender(Library.Spymemcached)

  /** spymemcached, binary protocol. */
  case spyBinary extends Contender(Library.Spymemcached)

  /** xmemcached, text protocol, its get merging on (its default). */
  case xmemAscii extends Contender(Library.Xmemcached)

  /** xmemcached, binary protocol, its get merging on (its default). */
  case xmemBinary extends Contender(Library.Xmemcached)

  /** xmemcached, text protocol, get merging off. */
  case xmemAsciiUnmerged extends Contender(Library.Xmemcached)

  /** xmemcached, binary protocol, get merging off. */
  case xmemBinaryUnmerged extends Contender(Library.Xmemcached)

  /** folsom's string client, text protocol. */
  case folsomAscii extends Contender(Library.Folsom)

  /** folsom's string client, binary protocol. */
  case folsomBinary extends Contender(Library.Folsom)

  /** folsom's serialising client, text protocol: the seed's folsom. */
  case folsomSerialAscii extends Contender(Library.Folsom)

  /** spymemcached, text protocol, through its asynchronous get and a completion listener. */
  case spyAsciiAsync extends Contender(Library.Spymemcached)

  /** spymemcached, binary protocol, through its asynchronous get and a completion listener. */
  case spyBinaryAsync extends Contender(Library.Spymemcached)

  /** folsom's string client, text protocol, through its `CompletionStage` get. */
  case folsomAsciiAsync extends Contender(Library.Folsom)

  /** folsom's string client, binary protocol, through its `CompletionStage` get. */
  case folsomBinaryAsync extends Contender(Library.Folsom)

  /** weft's memcached client through `client.pipelined`: no virtual thread per request. */
  case weftPipelined extends Contender(Library.Weft)

  /** Caffeine's coalescing `AsyncCache.get`. */
  case caffeine extends Contender(Library.Caffeine)

  /** The row's name: the benchmark method, or the name the harness writes. */
  def id: String = if harnessName.nonEmpty then harnessName else toString

/** Looking contenders up by the names rows carry. */
object Contender:
  /** The contender whose row is named `id`. */
  def byId(id: String): Option[Contender] = Contender.values.find(_.id == id)
