package weft.flow

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import scala.util.Try
import weft.*
import weft.testing.{Deadlined, FailureChecks}

/**
 * What the suites of the flow boundaries share: each test run under a deadline, on a platform
 * caller and on a virtual one, and the probes they put into stages.
 */
trait FlowTesting extends Deadlined, FailureChecks:
  self: munit.FunSuite =>

  /**
   * Registers `body` as two tests, "`name` (platform caller)" and "`name` (virtual caller)", each
   * running it inside `Async.blocking` on a new thread of that kind.
   */
  def flowTest(name: String)(body: Async ?=> Unit)(using munit.Location): Unit =
    onBothCallers(name)(Async.blocking(body))

  /** `f`'s outcome, awaited for at most `seconds`; fails naming `what` if it does not end by then. */
  def outcomeOf[T](f: Future[T], what: String, seconds: Int = 20)(using Async): Try[T] =
    withTimeoutOption(seconds.seconds)(f.result)
      .getOrElse(throw AssertionError(s"$what: the run did not end within $seconds s"))

  /** Runs `body`, which must throw `expected` itself (not a copy, not wrapped); fails otherwise. */
  def assertThrowsExactly(expected: Throwable, what: String)(body: => Any): Unit =
    val thrown =
      try
        body
        null
      catch case e: Throwable => e
    if thrown == null then fail(s"$what: the run ended normally, not with $expected")
    if !(thrown.nn eq expected) then
      throw AssertionError(s"$what: the run failed with $thrown, not with $expected", thrown)

/** Probes for stages: the threads that ran them, how many `finally` blocks ran. */
final class Probe:
  private val threads = ConcurrentHashMap.newKeySet[Thread]()

  /** Counts the `finally` blocks of stages that ended. */
  val finallies = AtomicInteger()

  /**
   * Set when a test gives up on a run that did not end: the tests' endless sources loop while it
   * is unset, so that a run a bug left spinning stops and does not starve the tests after it.
   */
  @volatile var abandoned = false

  /** Records the calling thread as one that ran a stage. */
  def here(): Unit = threads.add(Thread.currentThread()): Unit

  /** How many threads ran a stage. */
  def threadCount: Int = threads.size

  /** The threads that ran a stage, other than the caller, still alive. */
  def alive: List[Thread] =
    val me = Thread.currentThread()
    threads.asScala.toList.filter(t => t.isAlive && (t ne me))

  /** Fails if a thread that ran a stage (other than the caller) is still alive. */
  def assertNoneAlive(what: String): Unit =
    val left = alive
    if left.nonEmpty then
      throw AssertionError(s"$what: ${left.size} stage threads outlived the run: ${left.take(3)}")

/** Waits for the tests' stages. */
object FlowWait:

  /** Waits until cancelled: a wait a stage can be interrupted in. */
  def forever()(using Async): Nothing =
    Promise[Unit]().future.await
    throw AssertionError("a promise nobody completes was completed")

  /** Waits for `p` for at most `seconds`, failing naming `what` (so a stage cannot hang a test). */
  def on(p: Promise[Unit], what: String, seconds: Int = 20)(using Async): Unit =
    if withTimeoutOption(seconds.seconds)(p.future.await).isEmpty then
      throw AssertionError(s"$what: not within $seconds s")

  /**
   * Waits until `count` has stopped moving (the same in three looks 50 ms apart) and returns it:
   * for a producer that must stop at a bound. The wait is a lower bound on time, never an upper
   * one on the code under test; a count that never settles fails after 20 s.
   */
  def settle(count: => Int, what: String)(using Async): Int =
    var last = -1
    var same = 0
    var looks = 0
    while same < 3 do
      val now = count
      if now == last then same += 1 else same = 0
      last = now
      looks += 1
      if looks > 400 then throw AssertionError(s"$what: never stopped, at $now and counting")
      sleep(50.millis)
    last

  /**
   * Runs `body` inside `Async.blocking` on a new thread (virtual or platform) and returns its
   * value; if the thread has not ended within 20 s, marks `probe` abandoned and fails naming
   * `what`: a run that ignores its cancellation fails the test instead of hanging it.
   */
  def onOwnThread[T](what: String, probe: Probe, virtual: Boolean = true)(body: Async ?=> T): T =
    @volatile var outcome: Option[Try[T]] = None
    val builder = if virtual then Thread.ofVirtual() else Thread.ofPlatform()
    val t = builder.start(() => outcome = Some(Try(Async.blocking(body))))
    try weft.testing.Waits.join(t, s"$what: the run did not end")
    catch
      case e: AssertionError =>
        probe.abandoned = true
        throw e
    outcome.get.get
