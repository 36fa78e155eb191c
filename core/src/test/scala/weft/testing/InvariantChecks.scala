package weft.testing

import weft.{Listener, Source}

/**
 * What the invariant suites share: a deadline that names the invariant a hang breaks, so that a
 * bug that makes a scope or an await wait for ever fails the test within seconds, with a dump of
 * every thread, instead of hanging the run.
 */
trait InvariantChecks extends StressChecks:
  self: munit.FunSuite =>

  /** Runs `body` within `seconds`; any failure, a hang included, is reported under `invariant`. */
  def holdsWithin(seconds: Int, invariant: String)(body: => Unit): Unit =
    try withinDeadline(seconds, "weft-invariant-")(body)
    catch case e: AssertionError => fail(s"broken: $invariant\n${e.getMessage}", e)

/**
 * A source the test drives by hand: it never has a value of its own, records the listeners
 * registered on it, and can hold `onComplete` before the listener is added (`gated`), so that a
 * test can act at exactly that moment.
 */
final class ControlledSource[T](gated: Boolean = false) extends Source[T]:
  /** The listeners registered and not dropped. */
  val listeners = java.util.concurrent.ConcurrentLinkedQueue[Listener[T]]()

  /** Every listener ever registered, dropped or not, in order. */
  val registered = java.util.concurrent.ConcurrentLinkedQueue[Listener[T]]()

  /** Counted down when `onComplete` is entered. */
  val entered = java.util.concurrent.CountDownLatch(1)

  /** A gated `onComplete` adds its listener only once this is counted down. */
  val proceed = java.util.concurrent.CountDownLatch(1)

  def poll(k: Listener[T]): Boolean = false

  def onComplete(k: Listener[T]): Unit =
    entered.countDown()
    if gated then proceed.await()
    registered.add(k)
    listeners.add(k)

  def dropListener(k: Listener[T]): Unit = listeners.remove(k)
