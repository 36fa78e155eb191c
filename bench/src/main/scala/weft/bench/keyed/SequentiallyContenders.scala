package weft.bench.keyed

import cats.effect.{FiberIO, IO}
import cats.effect.unsafe.IORuntime
import com.typesafe.config.ConfigFactory
import java.util.SplittableRandom
import java.util.concurrent.CountDownLatch
import org.apache.pekko.actor.ActorSystem
import scala.concurrent.{Await, ExecutionContext, Future as SFuture, blocking}
import scala.concurrent.duration.{Duration, DurationInt}
import weft.{Async, Future, await}
import weft.keyed.Sequentially

/**
 * The keyed-executor workloads and their contenders (seed 001, and the targets set for it since).
 *
 * A workload is `batches` batches of [[Batch]] tasks per JMH invocation, each batch awaited
 * before the next; the score is per batch (`@OperationsPerInvocation(batches)`). Keys come from a
 * pre-drawn table (the same for all contenders), so no contender pays for a random generator.
 *
 * Threads: JMH calls from 1 platform thread; every contender hands off ONCE per invocation to
 * its own kind of thread and runs all batches there: weft inside `Async.blocking` on a virtual
 * thread started per invocation, Pekko and the Future chain on a virtual thread started per invocation, cats-effect
 * as one `unsafeRunSync` of the whole loop on its own runtime.
 *
 * Every contender's executor lives for the whole trial, as the peers' actor system, semaphores
 * and execution context do: weft's [[Sequentially]] belongs to a scope held open by a host
 * thread from `setup` to `teardown`, and the invocations submit to it from their own scopes.
 *
 * @param keySpace
 *   keys are drawn uniformly from `[0, keySpace)`; `0` means any `Int` (effectively distinct)
 * @param sleepy
 *   whether each task sleeps 1 ms (the IO workload) instead of doing nothing
 */
final class SequentiallyContenders(keySpace: Int, val sleepy: Boolean, val batches: Int):
  import SequentiallyContenders.*

  private val keys: Array[Int] =
    val rnd = SplittableRandom(42)
    Array.fill(KeyTable)(if keySpace == 0 then rnd.nextInt() else rnd.nextInt(keySpace))
  private var cursor = 0

  private var system: ActorSystem = null
  private var pekko: PekkoSequentially = null
  private var catsSeq: CatsSequentially = null
  // One bucket per key (keySpace of them), when the key space is finite: no two keys wait for
  // each other, as with weft's per-key queues.
  private var pekkoPerKey: PekkoSequentially = null
  private var catsPerKey: CatsSequentially = null
  private var chain: FutureChainSequentially = null
  @volatile private var seq: Sequentially[Int] = null
  private val seqReady = CountDownLatch(1)
  private val seqRelease = CountDownLatch(1)
  private var seqHost: Thread = null
  private val runtime: IORuntime = _root_.cats.effect.unsafe.implicits.global

  /** Creates the peers (once per trial). */
  def setup(): Unit =
    val config =
      ConfigFactory.parseString("pekko.loglevel = WARNING").withFallback(ConfigFactory.load())
    system = ActorSystem("sequentially-bench", config)
    pekko = PekkoSequentially(system, PekkoSequentially.defaultBuckets)
    catsSeq =
      CatsSequentially.create(PekkoSequentially.defaultBuckets).unsafeRunSync()(using runtime)
    chain = FutureChainSequentially(using ExecutionContext.global)
    if keySpace > 0 then
      pekkoPerKey = PekkoSequentially(system, keySpace, "per-key")
      catsPerKey = CatsSequentially.create(keySpace).unsafeRunSync()(using runtime)
    seqHost = Thread.ofPlatform().name("sequentially-host").start: () =>
      Async.blocking:
        seq = Sequentially[Int]()
        seqReady.countDown()
        seqRelease.await()
    seqReady.await()

  /** Stops the peers. */
  def teardown(): Unit =
    Await.result(system.terminate(), 1.minute)
    seqRelease.countDown()
    seqHost.join()

  /** The offset of this invocation's keys in the table; advances the cursor. */
  private def nextBase(): Int =
    val base = cursor
    cursor = (cursor + Batch * batches) & (KeyTable - 1)
    base

  private inline def key(base: Int, i: Int): Int = keys((base + i) & (KeyTable - 1))

  private def sleepOrNothing(): Unit = if sleepy then Thread.sleep(1)

  /** A weft task's sleep: `weft.sleep`, the cancellable sleep of its scope. */
  private def weftSleepOrNothing()(using Async): Unit = if sleepy then weft.sleep(1)

  /**
   * weft, asynchronous: `submit` a batch, then await every future.
   * @param threadSleep
   *   whether a sleeping task calls `Thread.sleep(1)` instead of `weft.sleep(1)`
   */
  def weftSubmit(threadSleep: Boolean = false): Int =
    val base = nextBase()
    _root_.weft.bench.OnVirtualThread.blocking:
      val fs = new Array[Future[Unit]](Batch)
      var done = 0
      var b = 0
      while b < batches do
        var i = 0
        while i < Batch do
          fs(i) =
            if threadSleep then seq.submit(key(base, b * Batch + i))(sleepOrNothing())
            else seq.submit(key(base, b * Batch + i))(weftSleepOrNothing())
          i += 1
        i = 0
        while i < Batch do
          fs(i).await
          done += 1
          i += 1
        b += 1
      done

  /** weft, direct style: `run` each task in turn from one fiber (the shape of `applyF`). */
  def weftRun(): Int =
    val base = nextBase()
    _root_.weft.bench.OnVirtualThread.blocking:
      var done = 0
      var n = 0
      while n < Batch * batches do
        seq.run(key(base, n))(weftSleepOrNothing())
        done += 1
        n += 1
      done

  /**
   * Pekko actors: a batch of `apply` futures, then `Await.result` on each.
   * @param perKey
   *   one actor per key instead of the seed's CPU * 5 buckets
   */
  def pekkoActors(perKey: Boolean = false): Int =
    val base = nextBase()
    val pekko = if perKey then pekkoPerKey else this.pekko
    onVirtualThread:
      val fs = new Array[SFuture[Unit]](Batch)
      var done = 0
      var b = 0
      while b < batches do
        var i = 0
        while i < Batch do
          fs(i) = pekko(key(base, b * Batch + i))(sleepOrNothing())
          i += 1
        i = 0
        while i < Batch do
          Await.result(fs(i), Duration.Inf)
          done += 1
          i += 1
        b += 1
      done

  /** A `scala.concurrent.Future` chain per key; a sleeping task is marked `blocking`. */
  def futureChain(): Int =
    val base = nextBase()
    onVirtualThread:
      val fs = new Array[SFuture[Unit]](Batch)
      var done = 0
      var b = 0
      while b < batches do
        var i = 0
        while i < Batch do
          fs(i) = chain(key(base, b * Batch + i))(if sleepy then blocking(Thread.sleep(1)))
          i += 1
        i = 0
        while i < Batch do
          Await.result(fs(i), Duration.Inf)
          done += 1
          i += 1
        b += 1
      done

  private val catsTask: IO[Unit] = if sleepy then IO.sleep(1.millis) else IO.unit

  /** Cats Effect as seed 001 measured it: every `applyF` sequenced in one fiber. */
  def catsApplyFSequenced(): Int =
    val base = nextBase()
    def loop(n: Int): IO[Int] =
      if n == Batch * batches then IO.pure(n)
      else catsSeq.applyF(key(base, n))(catsTask).flatMap(_ => loop(n + 1))
    loop(0).unsafeRunSync()(using runtime)

  /**
   * Cats Effect, concurrent: each task of a batch on its own fiber, then all joined.
   * @param perKey
   *   one `Semaphore(1)` per key instead of the seed's CPU * 5 buckets
   */
  def catsApplyFConcurrent(perKey: Boolean = false): Int =
    val base = nextBase()
    val catsSeq = if perKey then catsPerKey else this.catsSeq
    def startAll(b: Int, i: Int, acc: List[FiberIO[Unit]]): IO[List[FiberIO[Unit]]] =
      if i == Batch then IO.pure(acc)
      else
        catsSeq.applyF(key(base, b * Batch + i))(catsTask).start.flatMap(f =>
          startAll(b, i + 1, f :: acc)
        )
    def joinAll(fs: List[FiberIO[Unit]], done: Int): IO[Int] = fs match
      case Nil    => IO.pure(done)
      case h :: t => h.joinWithNever.flatMap(_ => joinAll(t, done + 1))
    def batch(b: Int, done: Int): IO[Int] =
      if b == batches then IO.pure(done)
      else
        startAll(b, 0, Nil).flatMap(fs => joinAll(fs.reverse, done)).flatMap(d => batch(b + 1, d))
    batch(0, 0).unsafeRunSync()(using runtime)

/** Constants and the virtual-thread hand-off shared by the keyed workloads. */
object SequentiallyContenders:

  /** Tasks per batch (seed 001's `BatchSize`). */
  inline val Batch = 1000

  /** Size of the pre-drawn key table (a power of two). */
  inline val KeyTable = 1 << 20

  /** Runs `body` on a new virtual thread and waits for it: one hand-off per invocation. */
  def onVirtualThread[T](body: => T): T =
    var result: Option[T] = None
    var failure: Throwable = null
    val t = Thread.ofVirtual().start(() =>
      try result = Some(body)
      catch case e: Throwable => failure = e
    )
    t.join()
    if failure != null then throw failure
    result.get
