package weft

import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.{AtomicBoolean, AtomicReference}
import scala.concurrent.duration.{DurationInt, FiniteDuration}
import weft.internal.runtime.DurationText

/**
 * An application whose `main` runs [[run]] in a scope and stops it in phases on SIGTERM and
 * SIGINT: first a request to stop that `run` can observe ([[shutdown]]), then a drain in which
 * the work in flight may finish ([[drainGrace]]), then the cancellation of what is left
 * ([[shutdownGrace]]), then the exit. A server stops accepting, answers what it has read, and
 * ends; every `finally` runs and every thread has ended.
 *
 * {{{
 * object Server extends WeftApp:
 *   override def drainGrace = 20.seconds
 *   def run(args: Seq[String])(using Async): Int =
 *     val server = Future(acceptLoop())   // stops accepting once shutdown.isRequested
 *     shutdown.requested.await            // until SIGTERM
 *     server.await                        // the drain: in-flight requests are answered
 *     0
 * }}}
 *
 * What happens:
 *   - `run` returns a code: every future it started is cancelled and joined (as for any
 *     `Async.blocking`), then the JVM exits with that code.
 *   - `run` throws: the exception is printed to standard error and the JVM exits with 1 (so
 *     does an interrupt of the `main` thread from elsewhere).
 *   - A SIGINT (Ctrl-C) or SIGTERM arrives (or `System.exit` is called elsewhere): the
 *     shutdown runs in phases, then the JVM exits with the signal's code (130 for SIGINT, 143
 *     for SIGTERM; `System.exit`'s own code).
 *     1. Request: [[shutdown]] is requested; nothing is cancelled.
 *     1. Drain: `run`'s scope has up to [[drainGrace]] to end by itself. If the deadline passes,
 *        the futures still running under `run` are counted and [[onDrainDeadline]] reports
 *        them (one line on standard error unless overridden).
 *     1. Cancel: the scope is cancelled (the `main` thread is interrupted, which cancels and
 *        joins `run`'s scope), and has up to [[shutdownGrace]] for its `finally` blocks and
 *        joins. Cleanup that overruns it is cut short by the JVM's exit.
 *
 * An app whose `run` never looks at [[shutdown]] (neither `requested` nor `isRequested`) has
 * nothing that would drain: it skips the drain and is cancelled at once. A second signal
 * during the phases changes nothing (the JVM is already shutting down): the phases are bounded
 * by `drainGrace + shutdownGrace`, and SIGKILL ends the process at once. Return the code from
 * `run` rather than calling `System.exit` in it: the calling thread would wait for the shutdown,
 * which waits for that thread, until both graces have passed.
 */
trait WeftApp:

  /**
   * The application: runs on a virtual thread, in a scope that SIGINT and SIGTERM stop in
   * phases (see the class's description).
   * @return
   *   the process's exit code
   */
  def run(args: Seq[String])(using Async): Int

  /**
   * The request to stop, made by SIGTERM, SIGINT or `System.exit`: `run` selects on
   * `shutdown.requested` or polls `shutdown.isRequested` to stop taking work and drain. Looking
   * at it is what gives the app a drain phase (see the class's description). Look at it in `run`
   * before the app is ready (`val stop = shutdown.requested` first, then the futures that await
   * it): a signal that comes before any look finds an app that does not drain, and cancels it.
   */
  final val shutdown: Shutdown = Shutdown()

  /**
   * How long a shutdown lets `run`'s scope finish by itself after the request, before it is
   * cancelled: 10 seconds unless overridden (skipped when `run` never looks at [[shutdown]]).
   */
  def drainGrace: FiniteDuration = 10.seconds

  /**
   * How long a shutdown waits for `run`'s scope to end once cancelled (`finally` blocks,
   * joins) before the JVM exits anyway: 10 seconds unless overridden.
   */
  def shutdownGrace: FiniteDuration = 10.seconds

  /**
   * Called (on the JVM's shutdown thread) when the drain deadline passes, with the number of
   * futures still running under `run` (its children and theirs; `run` itself not counted),
   * just before they are cancelled. By default one line on standard error:
   * `weft: drain deadline of 10 s passed; cancelling 12 futures still running`. Override it to
   * log elsewhere or to record the figure; it should return quickly.
   */
  def onDrainDeadline(stillRunning: Int): Unit =
    val futures = if stillRunning == 1 then "future" else "futures"
    System.err.println(
      s"weft: drain deadline of ${DurationText(drainGrace)} passed; " +
        s"cancelling $stillRunning $futures still running"
    )

  /** The JVM entry point: do not call it from code (see the class's description). */
  final def main(args: Array[String]): Unit =
    val mainThread = Thread.currentThread()
    val finished = CountDownLatch(1)
    val shuttingDown = AtomicBoolean()
    val app = AtomicReference[Future[Int] | Null]()
    val hook = Thread(
      () =>
        shuttingDown.set(true)
        ShutdownPhases.stop(
          shutdown,
          drainGrace,
          shutdownGrace,
          finished,
          () => app.get,
          onDrainDeadline,
          () => mainThread.interrupt()
        ): Unit
      ,
      "weft-app-shutdown"
    )
    Runtime.getRuntime.addShutdownHook(hook)
    val code =
      // `run` in a future, not on `main` itself: the interrupt of a shutdown then becomes the
      // future's cancellation, which `uninterruptible` cleanup defers for JDK blocking calls too
      // (at the root a JDK call would see the interrupt; ADR 0016). `WeftAppSuite` re-checks it.
      try
        Async.blocking:
          val f = Future(run(args.toSeq))
          app.set(f)
          f.await
      catch
        case e: Throwable =>
          // the interrupt of a shutdown is expected; the JVM then exits with the signal's code
          if !(e.isInstanceOf[InterruptedException] && shuttingDown.get) then e.printStackTrace()
          1
      finally finished.countDown()
    // Outside a shutdown the hook is removed and the code is ours; during a shutdown (the hook
    // is running) removing it throws, and the JVM exits with the signal's code once it returns.
    val ownExit =
      try Runtime.getRuntime.removeShutdownHook(hook)
      catch case _: IllegalStateException => false
    if ownExit then System.exit(code)

/** Variants of [[WeftApp]]. */
object WeftApp:

  /** A [[WeftApp]] with no exit code to choose: 0, or 1 if `run` throws. */
  trait Simple extends WeftApp:

    /** The application (see [[WeftApp.run]]); returning normally exits with 0. */
    def runSimple(args: Seq[String])(using Async): Unit

    final def run(args: Seq[String])(using Async): Int =
      runSimple(args)
      0
