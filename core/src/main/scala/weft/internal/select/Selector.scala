package weft
package internal.select

import java.util.concurrent.ConcurrentHashMap
import scala.compiletime.uninitialized
import scala.concurrent.duration.FiniteDuration
import weft.runtime.{Fiber, Scheduler}
import weft.internal.async.WaiterLock
import weft.internal.cells.CellSegment

/**
 * One [[Async.select]] in progress on the JVM: the lock shared by the listeners of all its cases,
 * and the place where the winning case's index and value land.
 *
 * ==Algorithm==
 * The same protocol as a [[RaceSource]] awaited by one waiter, with the layers folded into one
 * object: no mapped source per case, no race source, no wrapper listener and no separate lock.
 * Each case `i` gets a [[Selector.CaseListener]] whose lock is this selector, so exactly one case
 * can complete:
 *   1. '''poll''': the cases' sources are polled in order; a source with a ready value that
 *      acquires the lock completes its case, and nothing was registered, so nothing is undone.
 *   1. '''register''': otherwise each source gets its case's listener through `onComplete`, in
 *      order, until one completes it. After each registration the selector checks whether it has
 *      been completed meanwhile and, if so, drops that listener itself.
 *   1. The caller parks until completed (see [[SelectWait]]).
 * The completing source holds the lock while it calls `complete`, which records the winner,
 * retires the lock (every later `acquire` fails, so the other sources keep their values), wakes
 * the caller and drops the listeners from the sources registered so far. Registering (the
 * caller writes `registered`, then reads the winner) and completing (the completer writes the
 * winner, then reads `registered`) are ordered through volatile fields, so every registered
 * listener is dropped by one of the two, possibly by both (dropping is idempotent).
 *
 * An interrupted caller [[abandon]]s the select: it acquires the lock and retires it unused, so
 * that no source can complete a case after the caller left, or finds the select already won.
 * Between a cancellation of the caller's future and the caller waking to abandon, a source's
 * claim is declined (an [[WaiterLock]]): the future's result is already set, so a value taken
 * then would be lost.
 *
 * ==Cases parked in rendezvous cells==
 * A case reading a rendezvous channel registers by claiming a cell of the channel, where the
 * sender of that cell completes it directly (`weft.internal.channels.SelectCells`), instead of waiting in
 * the channel's watch list. Only when no case of this select can send on that channel (a send
 * and a read of one select would meet under one lock): every case must be a channel side or a
 * future, and no send case may name the same channel. The cells of the losing cases are broken
 * by the caller once the select fired ([[fire]]) or was abandoned, not by the completing
 * sender, which only drops watch-list listeners: the caller wrote those cells and finds them in
 * its cache.
 *
 * ==A timeout case==
 * [[onTimeout]] is a case like any other: its source ([[Selector.Timeout]]) is never ready when
 * polled and schedules one task when its listener is registered, which completes the case when
 * it runs. Being registered last-in-line changes nothing to the protocol: the completer of
 * another case drops it like any registered listener, which cancels the task.
 */
private[weft] final class Selector(cases: Seq[SelectCase[?, ?]], owner: Async | Null = null)
    extends WaiterLock(owner):
  import Selector.*

  private val fiber: Fiber = Fiber.current
  private val n = cases.length
  private val listeners = new Array[CaseListener](n)
  @volatile private var winner: Int = -1
  @volatile private var registered: Int = 0
  private var result: Any = null
  // Registration tokens of the cases parked in cells (written by the caller only).
  private var cells: Array[AnyRef | Null] | Null = null

  locally:
    var i = 0
    while i < n do
      listeners(i) = CaseListener(this, i)
      i += 1

  /** Whether a case has fired. */
  def isDone: Boolean = winner >= 0

  /** Polls every case in order; `true` if one fired. */
  def pollAll(): Boolean =
    var i = 0
    while i < n do
      cases(i).source.poll(listeners(i))
      if isDone then return true
      i += 1
    false

  /** Registers every case's listener in order, until one fires. */
  def registerAll(): Unit =
    val inCells = cellEligible()
    var i = 0
    while i < n && !isDone do
      val s = cases(i).source
      s match
        case c: SelectClause if inCells && c.parksInCell =>
          val t = c.parkCase(listeners(i))
          if t != null then
            if cells == null then cells = new Array[AnyRef | Null](n)
            cells.nn(i) = t
        case _ => s.onComplete(listeners(i))
      registered = i + 1
      if isDone then drop(i)
      i += 1

  /**
   * Spins briefly before the caller parks, when a case waits in a rendezvous cell: the sender of
   * that cell often comes within microseconds, and a parked select costs the sender an unpark
   * and the caller a trip through the scheduler. The length follows the
   * [[weft.internal.channels.SpinPolicy]] of the first such channel, which scores whether the spin paid; a
   * select with no case in a cell parks at once. `SpinPolicySuite` checks that these spins are
   * scored; the `select-2` benchmark re-checks the gain (figures in docs/perf/channels.md).
   */
  def spinBeforePark(): Unit =
    val cs = cells
    if cs != null && !isDone then
      var i = 0
      while cs.nn(i) == null do i += 1
      cases(i).source.asInstanceOf[SelectClause].spinBeforePark(isDone)

  /**
   * Whether the cases may park in cells: each is a [[SelectClause]] or completes its listeners
   * unpaired (a future), and no target is both read and sent to (see the class comment).
   */
  private def cellEligible(): Boolean =
    var i = 0
    while i < n do
      cases(i).source match
        case c: SelectClause =>
          var j = i + 1
          while j < n do
            cases(j).source match
              case d: SelectClause if d.clauseTarget eq c.clauseTarget =>
                if c.parksInCell != d.parksInCell then return false
              case _ => ()
            j += 1
        case s if s.completesUnpaired => ()
        case _                        => return false
      i += 1
    true

  /** Withdraws case `i`'s registration (a listener or a parked cell). */
  private def drop(i: Int): Unit =
    val cs = cells
    val t = if cs == null then null else cs.nn(i)
    cases(i).source match
      case c: SelectClause if t != null => c.withdrawCase(t.nn)
      case s                            => s.asInstanceOf[Source[Any]].dropListener(listeners(i))

  /**
   * Breaks the cells of the cases parked in cells, but case `except`'s (after the select fired or
   * was abandoned).
   */
  private def dropCells(except: Int): Unit =
    val cs = cells
    if cs != null then
      var i = 0
      while i < n do
        val t = cs.nn(i)
        if t != null && i != except then
          cases(i).source.asInstanceOf[SelectClause].withdrawCase(t.nn)
        i += 1

  /**
   * Makes the select uncompletable, for a caller that gives up: `true` if it was abandoned (no
   * case fired, none will), `false` if a case fired first. Drops every registered listener.
   */
  def abandon(): Boolean =
    val gone = retireUnused()
    dropRegistered()
    dropCells(except = -1)
    gone

  /**
   * Runs the handler of the case that fired, on the caller's thread. The winner's own cell is
   * not touched: whoever completed the case moved it out of its cell first (to `Done`, or to
   * `Broken` on close), and a CAS there would only fetch a line the completer just wrote.
   */
  def fire[R](): R =
    dropCells(except = winner)
    cases(winner).asInstanceOf[SelectCase[Any, R]].handler(result)

  /** Completion by case `i` (the lock is held): see the algorithm above. */
  private def complete(i: Int, data: Any): Unit =
    result = data
    winner = i
    retire()
    fiber.unparkOther()
    dropRegistered()

  /** Drops the watch-list listeners registered so far (not the cells: see [[dropCells]]). */
  private def dropRegistered(): Unit =
    val upTo = registered
    val cs = cells
    var i = 0
    while i < upTo do
      if cs == null || cs.nn(i) == null then
        cases(i).source.asInstanceOf[Source[Any]].dropListener(listeners(i))
      i += 1

/** The listeners of a [[Selector]], and the source of its timeout cases. */
private[weft] object Selector:

  /** The listener of case `index`: locked by its selector, which it completes. */
  final class CaseListener(sel: Selector, index: Int)
      extends Listener[Any],
        CellSegment.Findable:
    val lock: ListenerLock | Null = sel
    def complete(data: Any, source: Source[Any]): Unit = sel.complete(index, data)

  /**
   * The source of an [[onTimeout]] case: offers `()` to each listener `nanos` after it was
   * registered, unless it is dropped first (which frees the scheduled task). Never ready when
   * polled, so a select's ready cases win over it. One scheduler task per registered listener;
   * `SelectTimeoutSuite` checks that none is left once a select is over.
   */
  final class Timeout(nanos: Long, scheduler: Scheduler) extends Source[Unit]:
    private val pending = ConcurrentHashMap[Listener[Unit], TimeoutEntry]()

    override private[weft] def completesUnpaired: Boolean = true

    def poll(k: Listener[Unit]): Boolean = false

    def onComplete(k: Listener[Unit]): Unit =
      val e = TimeoutEntry(k, this)
      // In the map before it is scheduled, so a task that runs at once finds itself there.
      pending.put(k, e)
      val h = scheduler.schedule(nanos, e)
      e.cancel = h
      // Dropped meanwhile (a drop that found no handle yet): cancel here.
      if pending.get(k) ne e then h.cancel(): Unit

    def dropListener(k: Listener[Unit]): Unit =
      val e = pending.remove(k)
      if e != null then
        val h = e.cancel
        if h != null then h.nn.cancel(): Unit

    /** Runs entry `e`: completes its listener unless it was dropped first. */
    private[Selector] def ring(e: TimeoutEntry): Unit =
      if pending.remove(e.k, e) then
        try e.k.completeNow((), this): Unit
        catch case t: Throwable => Fiber.reportUncaught(t)

    /** The listeners registered and neither rung nor dropped: for tests. */
    private[weft] def waiting: Int = pending.size

  /** The scheduled task of a [[Timeout]] listener. */
  final class TimeoutEntry(val k: Listener[Unit], src: Timeout) extends Runnable:
    @volatile var cancel: Scheduler.Cancel | Null = uninitialized
    def run(): Unit = src.ring(this)
