package weft.bench

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import weft.{Async, Future, await, supervised}

/**
 * The cost of supervision (not a shootout workload): entering a scope that starts and awaits one
 * future, plain (`Async.group`) or supervised (weft's `supervised`, ox's `supervised` with
 * `fork`), and starting futures inside one long-lived scope of each kind. Every loop of
 * [[SupervisedScope.N]] operations runs on one virtual thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(SupervisedScope.N)
class SupervisedScope:
  import SupervisedScope.N

  /** weft: a nested plain scope per operation, one future in it. */
  @Benchmark
  def weftGroupEntry(): Long = OnVirtualThread.blocking {
    var sum = 0L
    var i = 0
    while i < N do
      val value = i
      sum += Async.group(Future(value.toLong).await)
      i += 1
    sum
  }

  /** weft: a supervised scope per operation (its body runs on a fiber of its own). */
  @Benchmark
  def weftSupervisedEntry(): Long = OnVirtualThread.blocking {
    var sum = 0L
    var i = 0
    while i < N do
      val value = i
      sum += supervised(Future(value.toLong).await)
      i += 1
    sum
  }

  /** ox: a supervised scope per operation, one fork joined in it. */
  @Benchmark
  def oxSupervisedEntry(): Long = OnVirtualThread.run {
    var sum = 0L
    var i = 0
    while i < N do
      val value = i
      sum += _root_.ox.supervised(_root_.ox.fork(value.toLong).join())
      i += 1
    sum
  }

  /** weft: futures started and awaited in one plain scope. */
  @Benchmark
  def weftSpawnInGroup(): Long = OnVirtualThread.blocking {
    Async.group {
      var sum = 0L
      var i = 0
      while i < N do
        val value = i
        sum += Future(value.toLong).await
        i += 1
      sum
    }
  }

  /** weft: futures started and awaited in one supervised scope (each one watched). */
  @Benchmark
  def weftSpawnInSupervised(): Long = OnVirtualThread.blocking {
    supervised {
      var sum = 0L
      var i = 0
      while i < N do
        val value = i
        sum += Future(value.toLong).await
        i += 1
      sum
    }
  }

/** Parameters of [[SupervisedScope]]. */
object SupervisedScope:
  /** Operations per invocation. */
  inline val N = 1000
