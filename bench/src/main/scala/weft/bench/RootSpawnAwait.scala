package weft.bench

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.{Async, Future, await}

/**
 * Spawn+await pairs in a root scope, by the kind of thread the body runs on: the JMH platform
 * thread itself (a `@main` written as the README's tour is), a virtual thread that enters the
 * scope, and a future inside a scope entered from the platform thread. A platform thread's park
 * and wake-up costs far more than a pair between virtual threads, so the first row shows what an
 * await on a platform thread costs (ADR 0021). Not a shootout workload: weft against itself.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(RootSpawnAwait.N)
class RootSpawnAwait:
  import RootSpawnAwait.loop

  /** The loop in `Async.blocking` entered on the JMH platform thread: it awaits there. */
  @Benchmark
  def platformBody(): Long = Async.blocking(loop())

  /** The loop in `Async.blocking` entered on a new virtual thread per invocation. */
  @Benchmark
  def virtualBody(): Long = OnVirtualThread.blocking(loop())

  /** The loop inside one future of a scope entered on the JMH platform thread. */
  @Benchmark
  def insideFuture(): Long = Async.blocking(Future(loop()).await)

/** The loop of [[RootSpawnAwait]]. */
object RootSpawnAwait:
  /** Spawn+await pairs per invocation. */
  final val N = 1000

  /** [[N]] times: start a future computing a number and await it. */
  def loop()(using Async): Long =
    var sum = 0L
    var i = 0
    while i < N do
      val value = i
      sum += Future(value.toLong).await
      i += 1
    sum
