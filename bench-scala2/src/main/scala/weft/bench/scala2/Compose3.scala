package weft.bench.scala2

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations._
import scala.async.Async.{async, await}
import scala.concurrent.{Await, ExecutionContext, Future}
import scala.concurrent.duration.Duration

/**
 * Workload `compose-3` (seed 000, FutureBenchmark) on Scala 2.13: three futures created once per
 * trial, already completed, summed and awaited by the blocking JMH thread on every op.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.AverageTime))
@OutputTimeUnit(TimeUnit.NANOSECONDS)
class Compose3 {
  private implicit val ec: ExecutionContext = ExecutionContext.global
  private var f1, f2, f3: Future[Double] = _

  /** Creates the three futures and waits until they are completed. */
  @Setup(Level.Trial)
  def setUp(): Unit = {
    f1 = Future(math.sqrt(2))
    f2 = Future(math.sqrt(3))
    f3 = Future(math.sqrt(5))
    Seq(f1, f2, f3).foreach(Await.ready(_, Duration.Inf))
  }

  /** `Future.sequence`, then the sum (the seed's `futureSequenceResult`). */
  @Benchmark
  def futureSequence(): Double =
    Await.result(Future.sequence(Seq(f1, f2, f3)).map(_.sum), Duration.Inf)

  /** A for-comprehension (the seed's `futureResult`). */
  @Benchmark
  def forComprehension(): Double =
    Await.result(for { a <- f1; b <- f2; c <- f3 } yield a + b + c, Duration.Inf)

  /** scala-async `async`/`await` (the seed's `asyncAwaitResult`). */
  @Benchmark
  def asyncAwait(): Double =
    Await.result(async { await(f1) + await(f2) + await(f3) }, Duration.Inf)
}
