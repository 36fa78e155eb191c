package weft.bench.time

import weft.bench.EffectRuntimes

import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import org.openjdk.jmh.annotations.*
import weft.{Async, Semaphore}

/**
 * Workload `semaphore-uncontended`: one fiber acquires and releases a free permit of a fair
 * semaphore of 1 around a one-increment critical section, [[SemaphorePermits.N]] times. The
 * method names are the contenders; `weft` is the baseline. weft and the JDK's fair semaphore run
 * on a virtual thread (ox has no semaphore of its own and uses the JDK's); cats-effect and ZIO as
 * one effect on their own runtimes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(SemaphorePermits.N)
class SemaphoreUncontended:
  import SemaphorePermits.*

  private val counter = AtomicLong()

  /** weft: `withPermit`, one fiber. */
  @Benchmark
  def weft(): Long = _root_.weft.bench.OnVirtualThread.blocking {
    val s = Semaphore(1)
    var i = 0
    while i < N do
      s.withPermit(counter.incrementAndGet())
      i += 1
    counter.get
  }

  /** JDK fair semaphore, one virtual thread. */
  @Benchmark
  def jdk(): Long = VirtualLoop.run {
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
  def catsEffect(): Long =
    import cats.effect.IO
    import cats.effect.std.Semaphore as CSemaphore
    val program = CSemaphore[IO](1).flatMap: s =>
      def loop(i: Int): IO[Unit] =
        if i == N then IO.unit
        else s.permit.surround(IO(counter.incrementAndGet())) >> loop(i + 1)
      loop(0)
    EffectRuntimes.runCats(program)
    counter.get

  /** ZIO `Semaphore`, `withPermit`. */
  @Benchmark
  def zio(): Long =
    import _root_.zio.{Semaphore as ZSemaphore, ZIO}
    val program = ZSemaphore.make(1).flatMap: s =>
      ZIO.foreachDiscard(0 until N)(_ => s.withPermit(ZIO.succeed(counter.incrementAndGet())))
    EffectRuntimes.runZio(program)
    counter.get
