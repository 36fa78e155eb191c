package weft

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import org.jetbrains.kotlinx.lincheck.annotations.{Operation, Validate}
import weft.*
import weft.internal.select.Selector

/**
 * Permits conserved through every way a permit can be offered and refused, for Lincheck: queued
 * listeners served by releases, listeners given up as a cancelled `await` gives up (drop, then
 * retire the unused lock: a release may complete it in between), listeners that decline every
 * offer, a select with two cases on the semaphore (one wins, the other declines), `tryAcquire`
 * and releases. A give-up has no sequential equivalent, so the operations return nothing and
 * [[check]] validates after every execution: never more holders than permits, and once every
 * guard is closed (which serves the listeners still queued) all permits are free and nobody waits.
 */
abstract class LincheckSemaphoreWaiters(permits: Int, segmentShift: Int = 5):
  private val s = Semaphore(permits).withSegmentShift(segmentShift)
  private val held = ConcurrentLinkedQueue[Semaphore.Guard]()
  private val holders = AtomicInteger()
  @volatile private var overbooked = 0

  /** A listener with its own lock, as `AsyncContext.Waiter`: it keeps what it is given. */
  private final class Keeper extends NumberedLock, Listener[Semaphore.Guard]:
    val lock: ListenerLock | Null = this
    def complete(g: Semaphore.Guard, src: Source[Semaphore.Guard]): Unit =
      got(g)
      retire()

  private def got(g: Semaphore.Guard): Unit =
    val now = holders.incrementAndGet()
    if now > s.permits then overbooked = now
    held.add(g): Unit

  private def releaseOne(): Boolean =
    val g = held.poll()
    if g == null then false
    else
      holders.decrementAndGet()
      g.close()
      true

  @Operation def tryAcquire(): Unit = s.tryAcquire().foreach(got)

  @Operation def release(): Unit = releaseOne(): Unit

  @Operation def queueAndStay(): Unit = s.acquiring.onComplete(Keeper())

  @Operation def queueAndGiveUp(): Unit =
    val k = Keeper()
    s.acquiring.onComplete(k)
    s.acquiring.dropListener(k)
    k.retireUnused(): Unit // false: a release completed it first, and it holds the permit

  @Operation def declining(): Unit =
    val k = Keeper()
    k.retireUnused(): Unit // completed elsewhere already: it declines every offer
    s.acquiring.onComplete(k)

  @Operation def selectTwoCases(): Unit =
    val sel = Selector(Seq(s.acquiring ~~> identity, s.acquiring ~~> identity))
    if !sel.pollAll() then sel.registerAll()
    if sel.isDone || !sel.abandon() then got(sel.fire[Semaphore.Guard]())

  @Validate def check(): Unit =
    if overbooked > 0 then throw AssertionError(s"$overbooked holders of ${s.permits} permits")
    var rounds = 0
    while releaseOne() do
      rounds += 1
      if rounds > 1_000 then throw AssertionError("guards keep coming back")
    if s.available != s.permits || s.waiting != 0 then
      throw AssertionError(s"permits not conserved: $s")

/** Lincheck target: one permit, so that nearly every operation queues or serves a claim. */
class LincheckSemaphore1 extends LincheckSemaphoreWaiters(1)

/** Lincheck target: two permits, so that fast and queued paths mix. */
class LincheckSemaphore2 extends LincheckSemaphoreWaiters(2)

/**
 * Lincheck target: one permit and segments of two cells, so that segments whose every claim was
 * given up are unlinked (and the releasers skip them) within a few operations.
 */
class LincheckSemaphoreSmallSegments extends LincheckSemaphoreWaiters(1, segmentShift = 1)

/** Model checking and stress of the semaphore's count and queue (see the targets above). */
class SemaphoreLincheckSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(170, "s")

  for c <- List(
      classOf[LincheckSemaphore1],
      classOf[LincheckSemaphore2],
      classOf[LincheckSemaphoreSmallSegments]
    )
  do
    test(s"${c.getSimpleName}: model checking"):
      LincheckRuns.modelCheck(
        c,
        iterations = 40,
        invocations = 60,
        threads = 3,
        actorsPerThread = 3
      )
    test(s"${c.getSimpleName}: stress"):
      LincheckRuns.stress(c, iterations = 20, invocations = 500, threads = 3, actorsPerThread = 4)
