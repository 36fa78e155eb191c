package weft.bench

import java.util.concurrent.TimeUnit
import org.openjdk.jmh.annotations.*
import scala.concurrent.{Await, ExecutionContext}
import scala.concurrent.duration.Duration
import weft.{Async, await}

/**
 * Workload `future-spawn-await` (seed 002, Future): start a runnable future and await it.
 *
 * Every contender runs its loop of [[FutureSpawnAwait.N]] spawn+await pairs on its own kind of
 * thread, entered once per invocation: a virtual thread for weft, bare threads, ox and
 * `scala.concurrent.Future`; the fiber runtime for cats-effect and ZIO.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(FutureSpawnAwait.N)
class FutureSpawnAwait:
  import FutureSpawnAwait.N

  /** weft: `Future { ... }` then `await`, the loop inside one `Async.blocking`. */
  @Benchmark
  def weft(): Long = OnVirtualThread.blocking {
    var sum = 0L
    var i = 0
    while i < N do
      val value = i
      sum += _root_.weft.Future(value.toLong).await
      i += 1
    sum
  }

  /**
   * The floor: a bare virtual thread computes the value and hands it to the waiting caller, who
   * parks until the value is there ([[FutureSpawnAwait.Handoff]]). Like weft's `await`, it waits
   * for the result only, not for the thread to terminate (`Thread.join` would add that).
   */
  @Benchmark
  def virtualThread(): Long = OnVirtualThread.run {
    var sum = 0L
    var i = 0
    while i < N do
      val h = FutureSpawnAwait.Handoff(Thread.currentThread())
      val value = i
      Thread.ofVirtual().start(() => h.complete(value.toLong))
      sum += h.await()
      i += 1
    sum
  }

  /** The bare virtual thread with `Thread.join`: waits for termination too (the old floor). */
  @Benchmark
  def virtualThreadJoin(): Long = OnVirtualThread.run {
    var sum = 0L
    var i = 0
    while i < N do
      val box = Array(0L)
      val value = i
      Thread.ofVirtual().start(() => box(0) = value).join()
      sum += box(0)
      i += 1
    sum
  }

  /** ox: `fork` then `join`, all inside one `supervised` scope. */
  @Benchmark
  def ox(): Long = OnVirtualThread.run {
    _root_.ox.supervised {
      var sum = 0L
      var i = 0
      while i < N do
        val value = i
        sum += _root_.ox.fork(value.toLong).join()
        i += 1
      sum
    }
  }

  /** cats-effect: `start` then `joinWithNever`, the whole loop in one `unsafeRunSync`. */
  @Benchmark
  def catsEffect(): Long =
    import cats.effect.IO
    def loop(i: Int, acc: Long): IO[Long] =
      if i == N then IO.pure(acc)
      else IO(i.toLong).start.flatMap(_.joinWithNever).flatMap(v => loop(i + 1, acc + v))
    EffectRuntimes.runCats(loop(0, 0L))

  /** ZIO: `fork` then `join`, the whole loop in one `unsafe.run`. */
  @Benchmark
  def zio(): Long =
    import _root_.zio.ZIO
    def loop(i: Int, acc: Long): ZIO[Any, Nothing, Long] =
      if i == N then ZIO.succeed(acc)
      else ZIO.succeed(i.toLong).fork.flatMap(_.join).flatMap(v => loop(i + 1, acc + v))
    EffectRuntimes.runZio(loop(0, 0L))

  /** `scala.concurrent.Future` on the global execution context, awaited with `Await.result`. */
  @Benchmark
  def scalaFuture(): Long = OnVirtualThread.run {
    given ExecutionContext = ExecutionContext.global
    var sum = 0L
    var i = 0
    while i < N do
      val value = i
      sum += Await.result(scala.concurrent.Future(value.toLong), Duration.Inf)
      i += 1
    sum
  }

/** Constants of [[FutureSpawnAwait]]. */
object FutureSpawnAwait:
  /** Spawn+await pairs per invocation. */
  final val N = 1000

  /**
   * The least a result hand-off between two threads needs: a volatile value and a park. The
   * producer writes the value then unparks the waiter; the waiter parks until it sees it
   * (spurious wake-ups loop).
   */
  final class Handoff(waiter: Thread):
    @volatile private var done = false
    private var value = 0L

    /** Publishes `v` and wakes the waiter. */
    def complete(v: Long): Unit =
      value = v
      done = true
      java.util.concurrent.locks.LockSupport.unpark(waiter)

    /** Parks until the value is published; returns it. */
    def await(): Long =
      while !done do java.util.concurrent.locks.LockSupport.park(this)
      value
