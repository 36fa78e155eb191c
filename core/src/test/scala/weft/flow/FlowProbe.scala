package weft.flow

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue, CountDownLatch}
import java.util.concurrent.atomic.AtomicInteger
import scala.jdk.CollectionConverters.*
import scala.util.{Failure, Try}
import weft.*
import weft.testing.Waits

/** The failure the flow suites plant: compared by identity, so a wrapped one never passes. */
final class Boom(message: String = "boom") extends RuntimeException(message)

/**
 * A source for the flow suites that records how it is run: how many runs started, what it
 * emitted, the threads it ran on, whether its `finally` ran; and that can be made to wait for
 * ever after its elements (`blockAfter`), for tests that cancel a run midway.
 */
final class FlowProbe[T](values: Seq[T], blockAfter: Boolean = false):

  /** Runs started. */
  val runs = AtomicInteger()

  /** Elements handed to `emit`, over every run (counted before `emit` is called). */
  val offered = AtomicInteger()

  /** Elements emitted (taken downstream), over every run. */
  val emitted = AtomicInteger()

  /** Runs whose `finally` ran. */
  val finished = AtomicInteger()

  /** Opened once a run has emitted every value (and, with `blockAfter`, is about to wait). */
  val reachedEnd = CountDownLatch(1)

  private val threads = ConcurrentLinkedQueue[Thread]()

  /** The flow of `values`, recording its runs. */
  val flow: Flow[T] = Flow.usingEmit[T] { emit =>
    runs.incrementAndGet()
    threads.add(Thread.currentThread())
    try
      for v <- values do
        offered.incrementAndGet()
        emit(v)
        emitted.incrementAndGet()
      reachedEnd.countDown()
      if blockAfter then Promise[Unit]().future.await
    finally finished.incrementAndGet(): Unit
  }

  /**
   * The threads that ran the source and are still alive, but the calling thread (a run entered
   * with `Async.blocking` from a platform thread runs its fused stages on that thread).
   */
  def aliveThreads: Seq[Thread] =
    val self = Thread.currentThread()
    threads.asScala.toSeq.distinct.filter(t => t.isAlive && (t ne self))

/** Helpers of the flow suites. */
object FlowProbe:

  /** A probe of `values` that waits for ever after emitting them. */
  def blocking[T](values: T*): FlowProbe[T] = FlowProbe(values, blockAfter = true)

  /**
   * Runs `run` in a future of a fresh `Async.blocking` scope, waits until `probe` has emitted all
   * its values and waits, cancels the future and returns its result, once the scope (and every
   * fiber of the run) has ended.
   */
  def cancelMidway[T, R](probe: FlowProbe[T])(run: Async ?=> R): Try[R] =
    Async.blocking:
      val f = Future(run)
      Waits.latch(probe.reachedEnd, "the run reached the probe's wait")
      f.cancel()
      Waits.within(Future(f.result), "the cancelled run's result")

  /** Whether `r` is a cancellation. */
  def isCancelled(r: Try[?]): Boolean = r match
    case Failure(_: CancellationException) => true
    case _                                 => false
