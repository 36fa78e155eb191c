package weft.bench.time

import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import org.openjdk.jmh.annotations.*
import weft.{Async, Semaphore}
import weft.awaitAll

/**
 * Workloads `semaphore-uncontended` and `semaphore-contended`: acquiring and releasing a permit
 * around a one-increment critical section.
 *
 *   - `uncontended*`: one fiber, a semaphore of 1 permit, N acquire/release pairs.
 *   - `contended*`: `Fibers` fibers share a semaphore of 2 permits, each doing N / Fibers pairs.
 *
 * All semaphores are fair (FIFO). weft and the JDK's `java.util.concurrent.Semaphore(fair)` run
 * on virtual threads (ox has no semaphore of its own and uses the JDK's); cats-effect and ZIO
 * run as one effect on their own runtimes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(SemaphorePermits.N)
class SemaphorePermits:
  import SemaphorePermits.*

  private val counter = AtomicLong()

  /** weft: `withPermit`, one fiber. */
  @Benchmark
  def uncontendedWeft(): Long = Async.blocking {
    val s = Semaphore(1)
    var i = 0
    while i < N do
      s.withPermit(counter.incrementAndGet())
      i += 1
    counter.get
  }

  /** JDK fair semaphore, one virtual thread. */
  @Benchmark
  def uncontendedJdk(): Long = VirtualLoop.run {
    val s = java.util.concurrent.Semaphore(1, true)
    var i = 0
    while i < N do
      s.acquire()
      try counter.incrementAndGet()
      finally s.release()
      i += 1
    counter.get
  }

  /** cats-effect `Semaphore[IO]`, `permit.surround`. */
  @Benchmark
  def uncontendedCatsEffect(): Long =
    import cats.effect.IO
    import cats.effect.std.Semaphore as CSemaphore
    val program = CSemaphore[IO](1).flatMap: s =>
      def loop(i: Int): IO[Unit] =
        if i == N then IO.unit
        else s.permit.surround(IO(counter.incrementAndGet())) >> loop(i + 1)
      loop(0)
    program.unsafeRunSync()(using cats.effect.unsafe.implicits.global)
    counter.get

  /** ZIO `Semaphore`, `withPermit`. */
  @Benchmark
  def uncontendedZio(): Long =
    import _root_.zio.{Runtime, Semaphore as ZSemaphore, Unsafe, ZIO}
    val program = ZSemaphore.make(1).flatMap: s =>
      ZIO.foreachDiscard(0 until N)(_ => s.withPermit(ZIO.succeed(counter.incrementAndGet())))
    Unsafe.unsafe(implicit u => Runtime.default.unsafe.run(program).getOrThrowFiberFailure())
    counter.get

  /** weft: `Fibers` futures share `Semaphore(2)`. */
  @Benchmark
  def contendedWeft(): Long = Async.blocking {
    val s = Semaphore(2)
    (1 to Fibers)
      .map: _ =>
        _root_.weft.Future:
          var i = 0
          while i < PerFiber do
            s.withPermit(counter.incrementAndGet())
            i += 1
      .awaitAll
    counter.get
  }

  /** JDK fair semaphore shared by `Fibers` virtual threads. */
  @Benchmark
  def contendedJdk(): Long =
    val s = java.util.concurrent.Semaphore(2, true)
    val threads = (1 to Fibers).map: _ =>
      Thread.ofVirtual().start: () =>
        var i = 0
        while i < PerFiber do
          s.acquire()
          try counter.incrementAndGet()
          finally s.release()
          i += 1
    threads.foreach(_.join())
    counter.get

  /** cats-effect: `Fibers` fibers (`parReplicateA_`) share `Semaphore[IO](2)`. */
  @Benchmark
  def contendedCatsEffect(): Long =
    import cats.effect.IO
    import cats.effect.std.Semaphore as CSemaphore
    import cats.syntax.all.*
    val program = CSemaphore[IO](2).flatMap: s =>
      def loop(i: Int): IO[Unit] =
        if i == PerFiber then IO.unit
        else s.permit.surround(IO(counter.incrementAndGet())) >> loop(i + 1)
      loop(0).parReplicateA_(Fibers)
    program.unsafeRunSync()(using cats.effect.unsafe.implicits.global)
    counter.get

  /** ZIO: `Fibers` fibers (`foreachParDiscard`) share a ZIO `Semaphore` of 2. */
  @Benchmark
  def contendedZio(): Long =
    import _root_.zio.{Runtime, Semaphore as ZSemaphore, Unsafe, ZIO}
    val program = ZSemaphore.make(2).flatMap: s =>
      ZIO.foreachParDiscard(1 to Fibers): _ =>
        ZIO.foreachDiscard(0 until PerFiber)(_ =>
          s.withPermit(ZIO.succeed(counter.incrementAndGet()))
        )
    Unsafe.unsafe(implicit u => Runtime.default.unsafe.run(program).getOrThrowFiberFailure())
    counter.get

/** Parameters of [[SemaphorePermits]]. */
object SemaphorePermits:
  /** Acquire/release pairs per invocation. */
  inline val N = 8000

  /** Fibers in the contended variants. */
  inline val Fibers = 8

  /** Pairs per fiber in the contended variants. */
  inline val PerFiber = N / Fibers
