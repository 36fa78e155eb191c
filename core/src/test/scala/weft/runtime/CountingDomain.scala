package weft.runtime

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.{AtomicInteger, AtomicLong}
import java.util.concurrent.locks.LockSupport

/**
 * A [[FiberDomain]] that only counts, for the state-machine stress: its members are numbered
 * token loops that park through [[Fiber.park]] as weft's waits do, and wakers hand them tokens.
 *
 * The ghost counters say what the count must be: a token whose wake has returned (`delivered`)
 * keeps its member counted until the member has taken it (`consumed`), so whenever the count
 * reads zero, every member has consumed at least what was delivered to it before.
 */
final class CountingDomain(val size: Int) extends FiberDomain:

  /** The counted-runnable number the domain's hooks keep. */
  val count = AtomicInteger(0)

  /** The lowest value the count fell to: below zero means a wake went uncounted. */
  val lowest = AtomicInteger(0)

  def support: AsyncSupport = AsyncSupport.default

  protected def onRunnable(): Unit = count.incrementAndGet(): Unit

  protected def onWaiting(): Unit =
    val c = count.decrementAndGet()
    if c < 0 then lowest.accumulateAndGet(c, math.min): Unit

  /** The member threads, by number (set once each has started). */
  val threads = new Array[Thread | Null](size)

  /** Tokens handed to a member and not yet taken. */
  val tokens = Array.fill(size)(AtomicInteger(0))

  /** Tokens whose wake (unpark or interrupt) has returned, per member. */
  val delivered = Array.fill(size)(AtomicLong(0))

  /** Tokens taken, per member. */
  val consumed = Array.fill(size)(AtomicLong(0))

  /** Wakes begun and not yet returned (a quiescence check waits for zero). */
  val inFlight = AtomicInteger(0)

  /** What the members saw go wrong. */
  val errors = ConcurrentLinkedQueue[String]()

  /** The object members park on, so a quiescence check can tell their weft park from others. */
  val blocker = new Object

  /**
   * Hands member `i` a token and wakes it: through [[Fiber.interrupt]] if `byInterrupt`, else
   * through [[Fiber.unpark]] (both count the member before the JDK wakes it).
   */
  def give(i: Int, byInterrupt: Boolean): Unit =
    inFlight.incrementAndGet()
    tokens(i).incrementAndGet()
    val f = Fiber.ofThread(threads(i).nn)
    if byInterrupt then f.interrupt() else f.unpark()
    delivered(i).incrementAndGet()
    inFlight.decrementAndGet(): Unit

  /** A wake the domain cannot see (a JDK unpark from outside weft): a spurious wake to it. */
  def foreignUnpark(i: Int): Unit = LockSupport.unpark(threads(i).nn)

  /**
   * Whether every member parks now in its weft park with nothing in flight and every token taken:
   * then the count must read zero.
   */
  def quiescent: Boolean =
    inFlight.get == 0 &&
      (0 until size).forall: i =>
        val t = threads(i).nn
        tokens(i).get == 0 && consumed(i).get == delivered(i).get &&
        t.getState == Thread.State.WAITING && (LockSupport.getBlocker(t) eq blocker)

object CountingDomain:

  /** A member's state, read by reflection for a failure's message (0 Running ... 3 Woken). */
  def stateOf(t: Thread): String =
    try
      val f = FiberDomain.getClass.getDeclaredFields.find(_.getName.contains("members")).get
      f.setAccessible(true)
      val m = f.get(FiberDomain).asInstanceOf[java.util.Map[Thread, AnyRef]].get(t)
      if m == null then "not a member"
      else
        val s = m.getClass.getDeclaredFields.find(_.getName == "state").get
        s.setAccessible(true)
        Vector("Running", "Permit", "Parked", "Woken").apply(
          s.get(m).asInstanceOf[AtomicInteger].get
        )
    catch case e: Exception => s"unknown ($e)"
