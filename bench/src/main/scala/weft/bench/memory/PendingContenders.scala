package weft.bench.memory

import java.util.concurrent.{CountDownLatch, ForkJoinPool, TimeUnit}
import scala.concurrent.{Await, ExecutionContext, Future as ScalaFuture}
import scala.concurrent.duration.Duration
import weft.await

/** One way of keeping N operations pending, measured by [[MemoryHarness]]. */
trait PendingContender:

  /** The id used on the command line and in the report. */
  def id: String

  /**
   * Starts the runtime, takes the baseline, makes `n` operations pending, measures, and returns
   * the JSON line. Never returns the pending operations' results: the JVM is halted after.
   */
  def measure(n: Int): String

  /**
   * Baseline, then `start` (which must return only once all `n` are pending and return what
   * keeps them reachable), then the pending heap and histogram.
   */
  protected final def around(n: Int)(start: => AnyRef): String =
    val baseline = MemoryHarness.usedAfterGc()
    val keep = start
    Thread.sleep(500) // let the last operations reach their blocking point
    val pending = MemoryHarness.usedAfterGc()
    val hist = MemoryHarness.histogram(5)
    java.lang.ref.Reference.reachabilityFence(keep)
    MemoryHarness.json(id, n, baseline, pending, hist)

/** The contenders of workload `memory-pending-100k`. */
object PendingContenders:

  /** weft: runnable futures blocked in `await` on one promise. */
  object WeftFuture extends PendingContender:
    val id = "weft-future"
    def measure(n: Int): String =
      weft.Async.blocking:
        weft.Future(1).await // warm the runtime
        // Report from inside the scope: its end would cancel and join the pending futures.
        MemoryHarness.emit(around(n):
          val p = weft.Promise[Int]()
          val ready = CountDownLatch(n)
          var i = 0
          while i < n do
            weft.Future { ready.countDown(); p.future.await }
            i += 1
          ready.await()
          p
        )

  /** Bare virtual threads blocked on one latch. */
  object VirtualThreads extends PendingContender:
    val id = "virtual-thread"
    def measure(n: Int): String =
      Thread.ofVirtual().start(() => ()).join()
      around(n):
        val gate = CountDownLatch(1)
        val ready = CountDownLatch(n)
        var i = 0
        while i < n do
          Thread.ofVirtual().start(() =>
            ready.countDown(); gate.await()
          )
          i += 1
        ready.await()
        gate

  /** The seed's Future sample: a 10-thread ForkJoinPool, N sleeping futures, Future.sequence. */
  object ScalaFutures extends PendingContender:
    val id = "scala-future"
    def measure(n: Int): String =
      val pool = ForkJoinPool(10)
      given ExecutionContext = ExecutionContext.fromExecutor(pool)
      Await.result(ScalaFuture(1), Duration.Inf)
      around(n):
        val futures =
          (1 to n).map(_ => ScalaFuture { Thread.sleep(Long.MaxValue / 2); util.Random.nextInt() })
        val all = ScalaFuture.sequence(futures)
        while pool.getQueuedSubmissionCount + pool.getQueuedTaskCount < n - 10 do Thread.sleep(10)
        (futures, all, pool)

  /** All contenders, by id. */
  val all: Seq[PendingContender] =
    Seq(WeftFuture, VirtualThreads, ScalaFutures) ++ PeerContenders.all

  /** The ids, in report order. */
  def ids: Seq[String] = all.map(_.id)

  /** Lookup by id. */
  val byId: Map[String, PendingContender] = all.map(c => c.id -> c).toMap
