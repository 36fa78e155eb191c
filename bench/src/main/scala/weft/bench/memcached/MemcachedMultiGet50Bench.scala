package weft.bench.memcached

import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import org.openjdk.jmh.annotations.*
import _root_.weft.Async

/**
 * Workload `memcached-multiget-50` (the seed's "multiget"): `key0` to `key4999` are stored
 * (each set awaited) before anything is counted; one op = one multiget of 50 distinct keys.
 * The seed shuffled the 5000 keys on every op, which costs more than a fast client's multiget:
 * here each thread cycles through [[MemcachedMultiGet50Bench.Subsets]] random subsets drawn
 * before measuring. Every op checks 50 hits with their values, and the server's `stats` must
 * count 50 gets and 50 hits per op (see [[McBench]]).
 */
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
class MemcachedMultiGet50Bench extends McBench:
  import MemcachedMultiGet50Bench.*

  protected def workloadId: String = "memcached-multiget-50"
  protected def setsPerOp: Long = 0
  protected def getsPerOp: Long = KeysPerOp
  protected def preload(c: McContender): Unit = McContender.preload(c, Stored)

  private def op(t: ThreadKeys): Unit =
    contender.multiGet(t.next())
    ops.increment()

  @Benchmark def weft(t: ThreadKeys): Unit = op(t)

  @Benchmark @OperationsPerInvocation(McBench.InScopeOps)
  def weftInScope(t: ThreadKeys): Unit = Async.blocking:
    var i = 0
    while i < McBench.InScopeOps do
      weftClient.multiGetInScope(t.next())
      ops.increment()
      i += 1

  @Benchmark def weftClassic(t: ThreadKeys): Unit = op(t)
  @Benchmark def spyAscii(t: ThreadKeys): Unit = op(t)
  @Benchmark def spyBinary(t: ThreadKeys): Unit = op(t)
  @Benchmark def xmemAscii(t: ThreadKeys): Unit = op(t)
  @Benchmark def xmemBinary(t: ThreadKeys): Unit = op(t)
  @Benchmark def xmemAsciiUnmerged(t: ThreadKeys): Unit = op(t)
  @Benchmark def xmemBinaryUnmerged(t: ThreadKeys): Unit = op(t)
  @Benchmark def folsomAscii(t: ThreadKeys): Unit = op(t)
  @Benchmark def folsomBinary(t: ThreadKeys): Unit = op(t)
  @Benchmark def folsomSerialAscii(t: ThreadKeys): Unit = op(t)

/** The key space and the per-thread subsets. */
object MemcachedMultiGet50Bench:
  /** Keys stored before measuring. */
  val Stored: Int = 5000

  /** Distinct keys per multiget. */
  val KeysPerOp: Int = 50

  /** Subsets each thread draws before measuring and cycles through. */
  val Subsets: Int = 256

  private val threadSeeds = AtomicInteger()

  /** One thread's subsets, drawn with its own seed, and its position in them. */
  @State(Scope.Thread)
  class ThreadKeys:
    private var sets: Array[KeySet] = Array.empty
    private var i = 0

    /**
     * Draws the subsets: each is the first [[KeysPerOp]] steps of a Fisher-Yates shuffle of the
     * key indices (a full shuffle of all 5000 per subset, 32 threads x 256 of them, took seconds
     * of each fresh fork's set-up).
     */
    @Setup(Level.Trial)
    def draw(): Unit =
      val rnd = scala.util.Random(threadSeeds.incrementAndGet().toLong)
      val keys = Array.range(0, Stored)
      sets = Array.fill(Subsets):
        val picked = Vector.newBuilder[String]
        var j = 0
        while j < KeysPerOp do
          val k = j + rnd.nextInt(Stored - j)
          val chosen = keys(k)
          keys(k) = keys(j)
          keys(j) = chosen
          picked += s"key$chosen"
          j += 1
        KeySet(picked.result())

    /** The next subset. */
    def next(): KeySet =
      val s = sets(i)
      i = if i + 1 == Subsets then 0 else i + 1
      s
