package weft.testkit

import java.util.SplittableRandom
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicLong
import scala.concurrent.duration.*
import weft.*
import weft.channels.*

/**
 * Two fibers (`a`, `b`) running the same random script of exchanges, for the idle-detection
 * stress: each step hands one value from `a` to `b` through one weft facility (or has `b` time
 * something alone), and records the virtual times around it.
 *
 * The exact rule every exchange obeys: the clock never moves while a fiber can run, so the
 * receiver returns at `max(sender's time before delivering, receiver's time before waiting)`:
 * the value was there when it came (then it took it at once), or it was woken by the value (then
 * no time passed since the delivery). Timeouts and sleeps end exactly when due.
 */
final class IdleLane(
    id: Int,
    steps: Int,
    r: SplittableRandom,
    errors: ConcurrentLinkedQueue[String]
):
  import IdleLane.*

  private val kinds = Array.fill(steps)(r.nextInt(Kinds))
  private val sleepA = Array.fill(steps)(r.nextInt(6).toLong)
  private val sleepB = Array.fill(steps)(r.nextInt(6).toLong)
  private val limit = Array.fill(steps)(1L + r.nextInt(6))
  private val sync = Array.fill(steps)(SyncChannel[Long]())
  private val buffered = Array.fill(steps)(BufferedChannel[Long](1))
  private val promises = Array.fill(steps)(Promise[Long]())
  private val semaphores = Array.fill(steps)(Semaphore(1))
  private val preA = Array.fill(steps)(AtomicLong(-1))
  private val preB = Array.fill(steps)(AtomicLong(-1))
  private val cancelledAt = Array.fill(steps)(AtomicLong(-1))
  private val timedOut = new Array[Boolean](steps)

  /** The virtual time each side ended its script at (nanoseconds since the scope started). */
  val endA = AtomicLong(-1)
  val endB = AtomicLong(-1)

  private def now(using c: VirtualClock): Long = c.now.toNanos
  private def ms(n: Long): Long = n * 1_000_000L

  private def check(ok: Boolean, step: Int, what: => String): Unit =
    if !ok then errors.add(s"lane $id, step $step (${KindNames(kinds(step))}): $what")

  /** The semaphores' permits `a` releases: taken before either side starts. */
  def takePermits()(using Async): Array[Semaphore.Guard] = semaphores.map(_.acquire())

  /** The sender's side. */
  def runA(guards: Array[Semaphore.Guard])(using VirtualClock, Async): Unit =
    for s <- 0 until steps do
      if kinds(s) <= Select && sleepA(s) > 0 then sleep(sleepA(s))
      val t = now
      kinds(s) match
        case Rendezvous =>
          preA(s).set(t)
          sync(s).send(t)
          val after = now
          // Both sides of a rendezvous leave it at the instant the value changed hands.
          check(after == math.max(t, awaitSet(preB(s))), s, s"sender left at $after")
        case Buffered | Select =>
          preA(s).set(t)
          buffered(s).send(t)
          check(now == t, s, "a send with room waited")
        case Fulfil =>
          preA(s).set(t)
          promises(s).success(t)
        case Permit =>
          preA(s).set(t)
          guards(s).close()
        case _ => ()
    endA.set(now)

  /** The receiver's side. */
  def runB()(using VirtualClock, Async): Unit =
    for s <- 0 until steps do
      if sleepB(s) > 0 then sleep(sleepB(s))
      val w = now
      preB(s).set(w)
      kinds(s) match
        case Rendezvous =>
          val v = sync(s).read().get
          expectExchange(s, v, w, now)
        case Buffered =>
          val v = buffered(s).read().get
          expectExchange(s, v, w, now)
        case Fulfil =>
          val v = promises(s).future.await
          expectExchange(s, v, w, now)
        case Permit =>
          semaphores(s).acquire().close()
          expectExchange(s, preA(s).get, w, now)
        case Select =>
          val got = Async.select(
            buffered(s).canRead ~~> (_.get),
            onTimeout(limit(s).millis)(-1L)
          )
          val t = now
          if got >= 0 then
            expectExchange(s, got, w, t)
            check(
              t <= w + ms(limit(s)),
              s,
              s"a value at $t after the timeout at ${w + ms(limit(s))}"
            )
          else
            timedOut(s) = true
            check(t == w + ms(limit(s)), s, s"timed out at $t, due at ${w + ms(limit(s))}")
        case Timeout =>
          // No tie: the sleep is one more or one less than the limit.
          val nap = if sleepA(s) % 2 == 0 then limit(s) + 1 else math.max(0L, limit(s) - 1)
          val res = withTimeoutOption(limit(s).millis)(sleep(nap))
          val t = now
          val due = w + ms(math.min(nap, limit(s)))
          check(t == due && res.isDefined == (nap < limit(s)), s, s"$res at $t, due at $due")
        case Cancel =>
          val at = cancelledAt(s)
          val f = Future:
            try sleep(1.hour)
            finally at.set(now)
          sleep(limit(s))
          f.cancel()
          f.result: Unit
          check(now == w + ms(limit(s)), s, s"cancelled at $now, due at ${w + ms(limit(s))}")
        case _ => // Spawn
          val f = Future:
            sleep(limit(s))
            now
          if sleepA(s) > 0 then sleep(sleepA(s))
          val w2 = now
          val v = f.await
          check(v == w + ms(limit(s)), s, s"the future ended at $v, due at ${w + ms(limit(s))}")
          check(now == math.max(w2, v), s, s"its await returned at $now")
    endB.set(now)

  /** Checks, once both sides ended, what only the end can tell. */
  def checkEnd(): Unit =
    for s <- 0 until steps if kinds(s) == Cancel do
      val due = preB(s).get + ms(limit(s))
      check(
        cancelledAt(s).get == due,
        s,
        s"the cancelled sleep woke at ${cancelledAt(s)}, not $due"
      )
    for s <- 0 until steps if timedOut(s) do
      // The select timed out: the value came no earlier than the timeout.
      check(preA(s).get >= preB(s).get + ms(limit(s)), s, s"timed out with a value sent before")

  private def expectExchange(s: Int, v: Long, w: Long, t: Long): Unit =
    check(v == preA(s).get, s, s"received $v, the sender stamped ${preA(s)}")
    check(t == math.max(v, w), s, s"received at $t: sent at $v, waited from $w")

  /** Waits (spinning) for a value the other side sets right before it blocks. */
  private def awaitSet(a: AtomicLong): Long =
    var v = a.get
    while v < 0 do
      Thread.onSpinWait()
      v = a.get
    v

object IdleLane:
  val Rendezvous = 0
  val Buffered = 1
  val Fulfil = 2
  val Permit = 3
  val Select = 4
  val Timeout = 5
  val Cancel = 6
  val Spawn = 7
  val Kinds = 8
  val KindNames = Vector(
    "rendezvous",
    "buffered",
    "promise",
    "semaphore",
    "select",
    "timeout",
    "cancel",
    "future"
  )
