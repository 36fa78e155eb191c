package weft.bench

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import scala.util.Success
import weft.{Async, await}

/**
 * Workload `compose-3` (seed 000): three futures, created once per trial and already completed,
 * summed and awaited by the blocking JMH thread on every op. The seed's own contenders
 * (`Future.sequence`, for-comprehension, scala-async) are in `bench-scala2`,
 * `weft.bench.scala2.Compose3`.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.AverageTime))
@OutputTimeUnit(TimeUnit.NANOSECONDS)
class Compose3:
  private var ce1, ce2, ce3: cats.effect.Deferred[cats.effect.IO, Double] = null
  private var ox1, ox2, ox3: _root_.ox.Fork[Double] = null
  private var w1, w2, w3: _root_.weft.Future[Double] = null

  /** Creates and completes the futures once. */
  @Setup(Level.Trial)
  def setUp(): Unit =
    import cats.effect.unsafe.implicits.global
    def deferred(v: Double) =
      val d = cats.effect.Deferred.unsafe[cats.effect.IO, Double]
      d.complete(v).unsafeRunSync()
      d
    ce1 = deferred(Compose3.a)
    ce2 = deferred(Compose3.b)
    ce3 = deferred(Compose3.c)
    w1 = _root_.weft.Future.now(Success(Compose3.a))
    w2 = _root_.weft.Future.now(Success(Compose3.b))
    w3 = _root_.weft.Future.now(Success(Compose3.c))
    ox1 = _root_.ox.Fork.successful(Compose3.a)
    ox2 = _root_.ox.Fork.successful(Compose3.b)
    ox3 = _root_.ox.Fork.successful(Compose3.c)

  /**
   * weft, direct style: the blocking caller enters `Async.blocking` for every op (its body runs
   * on the caller) and awaits the three futures there.
   */
  @Benchmark
  def weft(): Double = Async.blocking(w1.await + w2.await + w3.await)

  /**
   * weft entering its scope on a new virtual thread per op, the hop that ox's `supervised` makes
   * for its body: not a user's way (`Async.blocking` runs on the caller's own thread), shown so
   * that what the caller-run body saves is visible.
   */
  @Benchmark
  def weftOnVirtualThread(): Double = OnVirtualThread.blocking(w1.await + w2.await + w3.await)

  /** weft, with the scope entered once per [[Compose3.N]] ops: the cost of the awaits alone. */
  @Benchmark
  @OperationsPerInvocation(Compose3.N)
  def weftInScope(): Double = Async.blocking {
    var sum = 0.0
    var i = 0
    while i < Compose3.N do
      sum += w1.await + w2.await + w3.await
      i += 1
    sum
  }

  /** cats-effect: three completed `Deferred`s read in a for-comprehension, `unsafeRunSync` per op. */
  @Benchmark
  def catsEffect(): Double =
    val sum =
      for
        x <- ce1.get
        y <- ce2.get
        z <- ce3.get
      yield x + y + z
    EffectRuntimes.runCats(sum)

  /**
   * ox, like weft: the blocking caller enters a `supervised` scope per op and joins the three
   * completed forks there (ox runs a scope's body in a fork of its own, a new virtual thread).
   */
  @Benchmark
  def ox(): Double = _root_.ox.supervised(ox1.join() + ox2.join() + ox3.join())

  /** ox joining the completed forks on the caller, no scope: the cost of the joins alone. */
  @Benchmark
  def oxNoScope(): Double = ox1.join() + ox2.join() + ox3.join()

/** The three values, `Math.sqrt` of small numbers as in the seed. */
object Compose3:
  /** Ops per invocation of `weftInScope`. */
  final val N = 100000

  /** First value. */
  val a: Double = math.sqrt(2)

  /** Second value. */
  val b: Double = math.sqrt(3)

  /** Third value. */
  val c: Double = math.sqrt(5)
