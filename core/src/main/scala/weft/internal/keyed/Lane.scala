package weft
package internal.keyed

import weft.keyed.*

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue}
import scala.compiletime.uninitialized
import scala.util.{Failure, Success}
import weft.{Async, Promise}

/**
 * The queue of one busy key of a [[Sequentially]]: the tasks that came while the key's entry
 * task was in flight (see "The key's entry" in [[KeyedTask]]). A key gets a lane only when a
 * second task of it arrives while the first is queued or running; a key whose tasks come one at
 * a time never has one. The lane hangs off its `owner` entry and dies with it: when the lane
 * retires, the entry is dead and leaves the key map ([[KeyTable]]).
 *
 * ==Count and baton==
 * `count` is the number of tasks admitted and not yet settled as finished, the running one
 * included. A lane is born with `count = 2` (its owner and its first task) by the producer
 * that attaches it to the owner; the owner's runner holds the ''baton'' (the right to run the
 * key's tasks): after the owner it settles it here ([[finishOne]]) and goes on with the lane's
 * tasks. Exactly one fiber holds the baton at a time; it runs a task, then [[finishOne]], which
 * settles the `done` tasks finished so far (see "Settling in batches"): `count` `done` ->
 * `RETIRED` (the lane and its owner are dead; the owner leaves the map via [[DeadEntries]],
 * or at once) or `c` -> `c - done` (it keeps the baton and runs the next task). A producer
 * admits its task with a CAS `c` -> `c + 1` for `1 <= c <= limit`, then pushes it; it fails on
 * `RETIRED` (it then helps remove the dead entry and installs its own task as the key's new
 * entry) or waits while the lane is full (backpressure). Since `count` never rests at 0, no
 * producer ever needs to hand out a second baton: admission and retirement are decided by one
 * CAS each.
 *
 * ==The queue==
 * An intrusive multi-producer single-consumer linked queue (Vyukov's): producers swap
 * themselves into `tail` and then link the previous tail's `next` (or `front`, for the first
 * push into an empty lane); the baton holder follows `next` from the last task it took. Between
 * a producer's swap and its link the consumer may briefly see no successor although `count`
 * says there is one; it spins for those few instructions. The holder unlinks each task it moves
 * past, so a future kept by a caller never keeps the key's later tasks alive.
 *
 * ==Settling in batches==
 * The holder does not CAS `count` after every task: while the next task is already linked
 * behind the one it ran, it keeps the baton without touching `count` (which producers CAS), and
 * settles the finished tasks in one step (`c -> c - done`, or `done -> RETIRED`) after at most
 * `SettleBatch` tasks or when it sees no linked successor. `count` may thus exceed the tasks
 * really pending by up to `SettleBatch - 1`: backpressure is conservative, never looser.
 *
 * ==Layout==
 * The fields producers read and write (`count`, `tail`, `front`) and those only the baton
 * holder writes (`head`, `initial`, `unsettled`) sit on different cache lines (unused fields in
 * between, the exception `weft.internal.runtime.CacheLine` explains), so that a push on one core does not
 * miss on a line the holder keeps writing on another.
 *
 * ==Fences==
 * Only the steps that decide something are full fences: the producer's swap of `tail`, and the
 * CASes of `count`. Every other write (linking a task, the holder moving `head`, clearing what
 * it consumed) is a release store, a plain move on x86: a reader that sees the reference sees the
 * task it points to, which is all these writes publish, and no decision depends on their
 * order with a later read. A volatile store there would be a full fence per task on each side;
 * likewise no field is initialized by a volatile store (see [[weft.internal.futures.CoreFuture]]).
 *
 * ==Backpressure==
 * A producer finding the lane full registers a promise in `waiters` (allocated on first use),
 * re-checks `count`, and awaits the promise. The baton holder completes one waiter per finished
 * task, and all of them when the lane retires. Producer (register, then read `count`) and holder
 * (write `count`, then poll `waiters`) order their steps oppositely, so a wake-up is never lost.
 *
 * @param owner
 *   the key's entry this lane follows (`null` only for [[Lane.Dead]])
 * @param first
 *   the lane's first task (the key's second in flight)
 * @param initialCount
 *   `count` at birth: 2 (the owner and `first`), or `RETIRED` for [[Lane.Dead]]
 */
private[weft] final class Lane(
    val owner: KeyedTask[?] | Null,
    first: KeyedTask[?] | Null,
    initialCount: Int
) extends LaneProducerFields(first, initialCount), ReadyWork:
  import Lane.*

  /** The last task taken by the baton holder (consumer side only). */
  @volatile private var head: KeyedTask[?] | Null = uninitialized

  /** The task the lane was created with, not yet taken by the baton holder. */
  @volatile private var initial: KeyedTask[?] | Null = uninitialized

  /** Tasks finished by the baton holder and not yet subtracted from `count`. */
  private var unsettled: Int = uninitialized

  HEAD.set(this, first)
  INITIAL.set(this, first)

  /** Whether the lane is dead: its last task finished; its owner entry is dead too. */
  def isRetired: Boolean = count == RETIRED

  /** Admits one more task: [[Admitted]], [[Full]] (with `limit` tasks counted) or [[Retired]]. */
  def tryAdmit(limit: Int): Int =
    while true do
      val c = count
      if c == RETIRED then return Retired
      if c > limit then return Full
      if COUNT.compareAndSet(this, c, c + 1) then return Admitted
    Retired

  /** Appends an admitted task. */
  def push(t: KeyedTask[?]): Unit =
    val prev = TAIL.getAndSet(this, t).asInstanceOf[KeyedTask[?] | Null]
    if prev == null then FRONT.setRelease(this, t) else KeyedTask.NEXT.setRelease(prev, t)

  /** The next task to run (baton holder only; a task must have been admitted). */
  def take(): KeyedTask[?] =
    val i = initial
    if i != null then
      INITIAL.setRelease(this, null)
      i
    else
      val h = head
      var n = if h == null then front else h.next
      var spins = 0
      while n == null do
        weft.runtime.Fiber.spinPause(spins)
        spins += 1
        n = if h == null then front else h.next
      HEAD.setRelease(this, n)
      // a consumed task must not keep its successors alive
      if h != null then KeyedTask.NEXT.setRelease(h, null) else FRONT.setRelease(this, null)
      n.nn

  /**
   * Called by the baton holder after a task: returns `true` if the lane retired (the caller
   * sees to its owner's removal from the map), `false` if more tasks are admitted (the caller
   * keeps the baton). Wakes the producers waiting for room.
   */
  def finishOne(): Boolean =
    unsettled += 1
    val h = head
    val linked = if h == null then front != null else h.next != null
    if linked && unsettled < SettleBatch then false
    else
      val done = unsettled
      unsettled = 0
      var retired = false
      var decided = false
      while !decided do
        val c = count
        if c == done then
          if COUNT.compareAndSet(this, done, RETIRED) then
            retired = true
            decided = true
        else if COUNT.compareAndSet(this, c, c - done) then decided = true
      if retired then
        // no producer pushes after retirement; drop the references to the tasks
        TAIL.setRelease(this, null)
        HEAD.setRelease(this, null)
      val w = waiters
      if w != null then
        if retired then wakeAll(w)
        else
          var i = 0
          while i < done do
            wakeOne(w)
            i += 1
      retired

  /** Waits until the lane has room for one more task or retires (then the caller retries). */
  def awaitRoom(limit: Int)(using async: Async): Unit =
    val p = Promise[Unit]()
    waitersQueue().add(p)
    val c = count
    if c == RETIRED || c <= limit then p.tryComplete(Success(()))
    try async.await(p.future)
    catch
      case e: Throwable =>
        if !p.tryComplete(Failure(CancellationException("producer left"))) then
          wakeOne(waitersQueue())
        throw e

  /** Wakes every producer waiting for room (on close, so they see the closed state). */
  def wakeAllWaiters(): Unit =
    val w = waiters
    if w != null then wakeAll(w)

  /** Cancels the queued tasks that have not started (and the running one if `running`). */
  def cancelTasks(running: Boolean): Unit =
    var t: KeyedTask[?] | Null = initial
    if t == null then t = head
    if t == null then t = front
    while t != null do
      if running then t.cancel() else t.cancelIfPending()
      val n = t.next
      // `null` past a task the holder has consumed (it unlinks them): resume from its head.
      t = if n != null then n else if (head ne t) && (tail ne t) then head else null

  private def waitersQueue(): ConcurrentLinkedQueue[Promise[Unit]] =
    val w = waiters
    if w != null then w
    else
      val fresh = ConcurrentLinkedQueue[Promise[Unit]]()
      if WAITERS.compareAndSet(this, null, fresh) then fresh else waiters.nn

  private def wakeOne(w: ConcurrentLinkedQueue[Promise[Unit]]): Unit =
    var woken = false
    while !woken do
      val p = w.poll()
      if p == null then woken = true
      else woken = p.tryComplete(Success(()))

  private def wakeAll(w: ConcurrentLinkedQueue[Promise[Unit]]): Unit =
    var p = w.poll()
    while p != null do
      p.tryComplete(Success(()))
      p = w.poll()

private[weft] object Lane:
  /** `count` of a dead lane. */
  inline val RETIRED = Int.MinValue

  /** A lane for `owner`'s key holding `first`, the key's second task in flight. */
  def following(owner: KeyedTask[?], first: KeyedTask[?]): Lane = Lane(owner, first, 2)

  /** Results of [[Lane.tryAdmit]]. */
  inline val Admitted = 0
  inline val Full = 1
  inline val Retired = 2

  /** The most tasks the baton holder finishes before it settles them in `count`. */
  inline val SettleBatch = 32

  private val lookup =
    MethodHandles.privateLookupIn(classOf[LaneProducerFields], MethodHandles.lookup())
  val COUNT: VarHandle =
    lookup.findVarHandle(classOf[LaneProducerFields], "count", classOf[Int])
  val TAIL: VarHandle =
    lookup.findVarHandle(classOf[LaneProducerFields], "tail", classOf[KeyedTask[?]])
  private val FRONT: VarHandle =
    lookup.findVarHandle(classOf[LaneProducerFields], "front", classOf[KeyedTask[?]])
  val WAITERS: VarHandle =
    lookup.findVarHandle(
      classOf[LaneProducerFields],
      "waiters",
      classOf[ConcurrentLinkedQueue[?]]
    )
  private val laneLookup = MethodHandles.privateLookupIn(classOf[Lane], MethodHandles.lookup())
  private val HEAD: VarHandle =
    laneLookup.findVarHandle(classOf[Lane], "head", classOf[KeyedTask[?]])
  private val INITIAL: VarHandle =
    laneLookup.findVarHandle(classOf[Lane], "initial", classOf[KeyedTask[?]])

  /**
   * A lane attached to a task that finished alone: always retired (see [[KeyedTask]]). Last in
   * this object: its constructor uses the handles above.
   */
  val Dead: Lane = Lane(null, null, RETIRED)

/**
 * The fields producers write (`count` is CASed by the baton holder too, in batches), then the
 * padding that keeps the baton holder's fields off their line.
 */
private[weft] abstract class LaneProducerFields(first: KeyedTask[?] | Null, initialCount: Int):
  @volatile private[weft] var count: Int = uninitialized
  @volatile private[weft] var tail: KeyedTask[?] | Null = uninitialized
  @volatile private[weft] var front: KeyedTask[?] | Null = uninitialized
  @volatile private[weft] var waiters: ConcurrentLinkedQueue[Promise[Unit]] | Null = uninitialized
  Lane.COUNT.set(this, initialCount)
  Lane.TAIL.set(this, first)
  private[weft] var q01, q02, q03, q04, q05, q06, q07, q08: Long = uninitialized
