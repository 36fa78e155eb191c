package weft.bench.memory

import java.util.concurrent.{CountDownLatch, ForkJoinPool}
import scala.concurrent.{Await, ExecutionContext, Future as ScalaFuture}
import scala.concurrent.duration.Duration
import weft.{Async, await}
import weft.channels.UnboundedChannel

/** One way of keeping N operations pending, measured by [[MemoryHarness]]. */
trait PendingContender:

  /** The id used on the command line and in the report. */
  def id: String

  /** Starts the runtime, measures `n` pending operations and emits the JSON line (halting). */
  def measure(n: Int): Nothing

  /**
   * Warms up, takes the baseline, makes `n` operations pending, measures, and emits.
   *
   * @param pend
   *   starts `k` operations and returns, once all are pending, what keeps them reachable
   * @param release
   *   unblocks what `pend` returned and waits until those operations have finished
   */
  protected final def around(n: Int)(pend: Int => AnyRef)(release: AnyRef => Unit): Nothing =
    // Warm-up: JIT-compiled frames are smaller than interpreted ones, and a virtual thread's
    // stack chunk holds its frames: measure every contender in the same, compiled, state. On a
    // busy 2-core machine the compiler may still be working after the rounds (weft measured
    // 1,496 instead of ~850 bytes per op, three quarters of it interpreted frames), so let its
    // queue drain and run one more round on the compiled code.
    for _ <- 1 to 5 do release(pend(math.min(n, 20_000)))
    Thread.sleep(1000)
    release(pend(math.min(n, 20_000)))
    val baseline = MemoryHarness.usedAfterGc()
    val keep = pend(n)
    Thread.sleep(300) // let the last operations reach their blocking point
    val pending = MemoryHarness.usedAfterGc()
    val hist = if MemoryHarness.histogramWanted then MemoryHarness.histogram(14) else Nil
    java.lang.ref.Reference.reachabilityFence(keep)
    MemoryHarness.emit(MemoryHarness.json(id, n, baseline, pending, hist))

/** The contenders of workloads `memory-pending-100k` and `memory-pending-1m`. */
object PendingContenders:

  /**
   * The message of the tell contenders, the same class for Pekko and weft-tell so that both
   * queue an object of the same kind and size: the batch's gate (the Pekko actor waits on it; a
   * weft-tell worker has waited on its own before reading) and the latch it counts down.
   */
  final case class Work(gate: AnyRef, finished: CountDownLatch)

  /** A pending batch: what keeps it reachable, its gate, and the latch of finished operations. */
  final case class Batch(keep: AnyRef, open: () => Unit, finished: CountDownLatch)

  /** Releases a [[Batch]] and waits for its operations to finish. */
  def releaseBatch(b: AnyRef): Unit =
    val batch = b.asInstanceOf[Batch]
    batch.open()
    batch.finished.await()

  /** weft: runnable futures blocked in `await` on one promise. */
  object WeftFuture extends PendingContender:
    val id = "weft-future"
    def measure(n: Int): Nothing = Async.blocking:
      around(n) { k =>
        val p = weft.Promise[Int]()
        val ready, finished = CountDownLatch(k)
        var i = 0
        while i < k do
          weft.Future { ready.countDown(); p.future.await; finished.countDown() }
          i += 1
        ready.await()
        Batch(p, () => p.success(0), finished)
      }(releaseBatch)

  /**
   * weft "tell": [[Work]] messages queued in an `UnboundedChannel` to a pool of 10 blocked
   * workers.
   */
  object WeftTell extends PendingContender:
    val id = "weft-tell"
    def measure(n: Int): Nothing = Async.blocking:
      around(n) { k =>
        val ch = UnboundedChannel[Work]()
        val gate = weft.Promise[Unit]()
        val started = CountDownLatch(10)
        val finished = CountDownLatch(k)
        for _ <- 1 to 10 do
          weft.Future:
            started.countDown()
            gate.future.await // the workers are busy: messages queue up, as in the seed
            while finished.getCount > 0 do ch.read().get.finished.countDown()
        started.await()
        var i = 0
        while i < k do
          ch.send(Work(gate, finished))
          i += 1
        Batch(ch, () => gate.success(()), finished)
      }(releaseBatch)

  /** Bare virtual threads blocked on one latch. */
  object VirtualThreads extends PendingContender:
    val id = "virtual-thread"
    def measure(n: Int): Nothing =
      around(n) { k =>
        val gate = CountDownLatch(1)
        val ready, finished = CountDownLatch(k)
        var i = 0
        while i < k do
          Thread.ofVirtual().start(() =>
            ready.countDown(); gate.await(); finished.countDown()
          )
          i += 1
        ready.await()
        Batch(gate, () => gate.countDown(), finished)
      }(releaseBatch)

  /** The seed's Future sample: a 10-thread ForkJoinPool, N blocked futures, Future.sequence. */
  object ScalaFutures extends PendingContender:
    val id = "scala-future"
    def measure(n: Int): Nothing =
      val pool = ForkJoinPool(10)
      given ExecutionContext = ExecutionContext.fromExecutor(pool)
      around(n) { k =>
        val gate = CountDownLatch(1)
        val finished = CountDownLatch(k)
        val futures = (1 to k).map: _ =>
          ScalaFuture { gate.await(); finished.countDown(); util.Random.nextInt() }
        val all = ScalaFuture.sequence(futures)
        while pool.getQueuedSubmissionCount + pool.getQueuedTaskCount < k - 10 do Thread.sleep(10)
        Batch(all, () => gate.countDown(), finished)
      }(releaseBatch)

  /** All contenders, by id. */
  val all: Seq[PendingContender] =
    Seq(WeftFuture, WeftTell, VirtualThreads, ScalaFutures) ++ PeerContenders.all

  /** The ids, in report order. */
  def ids: Seq[String] = all.map(_.id)

  /** Lookup by id. */
  val byId: Map[String, PendingContender] = all.map(c => c.id -> c).toMap
