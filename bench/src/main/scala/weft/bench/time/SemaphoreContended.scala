package weft.bench.time

import weft.bench.EffectRuntimes

import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import org.openjdk.jmh.annotations.*
import weft.{Async, Semaphore}
import weft.awaitAll

/**
 * Workload `semaphore-contended`: [[SemaphorePermits.Fibers]] fibers share a fair semaphore of
 * 2 permits, each doing [[SemaphorePermits.PerFiber]] acquire/release pairs around a
 * one-increment critical section. Threads as in [[SemaphoreUncontended]].
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(SemaphorePermits.N)
class SemaphoreContended:
  import SemaphorePermits.*

  private val counter = AtomicLong()

  /** weft: `Fibers` futures share `Semaphore(2)`. */
  @Benchmark
  def weft(): Long = _root_.weft.bench.OnVirtualThread.blocking {
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
  def jdk(): Long =
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
  def catsEffect(): Long =
    import cats.effect.IO
    import cats.effect.std.Semaphore as CSemaphore
    import cats.syntax.all.*
    val program = CSemaphore[IO](2).flatMap: s =>
      def loop(i: Int): IO[Unit] =
        if i == PerFiber then IO.unit
        else s.permit.surround(IO(counter.incrementAndGet())) >> loop(i + 1)
      loop(0).parReplicateA_(Fibers)
    EffectRuntimes.runCats(program)
    counter.get

  /** ZIO: `Fibers` fibers (`foreachParDiscard`) share a ZIO `Semaphore` of 2. */
  @Benchmark
  def zio(): Long =
    import _root_.zio.{Semaphore as ZSemaphore, ZIO}
    val program = ZSemaphore.make(2).flatMap: s =>
      ZIO.foreachParDiscard(1 to Fibers): _ =>
        ZIO.foreachDiscard(0 until PerFiber)(_ =>
          s.withPermit(ZIO.succeed(counter.incrementAndGet()))
        )
    EffectRuntimes.runZio(program)
    counter.get
