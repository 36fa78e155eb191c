package weft

import java.util.concurrent.{CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicBoolean
import scala.concurrent.duration.{DurationInt, FiniteDuration}

/**
 * An application whose `main` runs [[run]] in a scope and turns SIGINT and SIGTERM into the
 * cancellation of that scope, so that a server stops the way it stops on any other
 * cancellation: every future is cancelled, every `finally` runs, every thread has ended.
 *
 * {{{
 * object Server extends WeftApp:
 *   def run(args: Seq[String])(using Async): Int =
 *     val server = Future(acceptLoop())
 *     try server.await; 0
 *     finally log("stopped")   // runs on Ctrl-C and on `kill`, too
 * }}}
 *
 * What happens:
 *   - `run` returns a code: every future it started is cancelled and joined (as for any
 *     `Async.blocking`), then the JVM exits with that code.
 *   - `run` throws: the exception is printed to standard error and the JVM exits with 1 (so
 *     does an interrupt of the `main` thread from elsewhere).
 *   - A SIGINT (Ctrl-C) or SIGTERM arrives: the scope is cancelled (the `main` thread is
 *     interrupted, which cancels and joins `run`'s scope), and the JVM's shutdown waits up to
 *     [[shutdownGrace]] for that to finish, then exits with the JVM's code for the signal (130
 *     for SIGINT, 143 for SIGTERM). Cleanup that overruns the grace period is cut short by the
 *     JVM's exit.
 *
 * A `System.exit` called elsewhere starts the same shutdown: the scope is cancelled and given
 * the grace period.
 */
trait WeftApp:

  /**
   * The application: runs on a virtual thread, in a scope that SIGINT and SIGTERM cancel.
   * @return
   *   the process's exit code
   */
  def run(args: Seq[String])(using Async): Int

  /**
   * How long a signal's shutdown waits for `run`'s scope to end (cancellation, `finally`
   * blocks, joins) before the JVM exits anyway: 10 seconds unless overridden.
   */
  def shutdownGrace: FiniteDuration = 10.seconds

  /** The JVM entry point: do not call it from code (see the class's description). */
  final def main(args: Array[String]): Unit =
    val mainThread = Thread.currentThread()
    val finished = CountDownLatch(1)
    val shuttingDown = AtomicBoolean()
    val hook = Thread(
      () =>
        shuttingDown.set(true)
        mainThread.interrupt()
        finished.await(shutdownGrace.toMillis, TimeUnit.MILLISECONDS): Unit
      ,
      "weft-app-shutdown"
    )
    Runtime.getRuntime.addShutdownHook(hook)
    val code =
      // `run` in a future, not on `main` itself: the interrupt of a shutdown then becomes the
      // future's cancellation, which `uninterruptible` cleanup defers for JDK blocking calls too
      // (at the root a JDK call would see the interrupt; ADR 0016). `WeftAppSuite` re-checks it.
      try Async.blocking(Future(run(args.toSeq)).await)
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
