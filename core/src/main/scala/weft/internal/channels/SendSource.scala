package weft
package internal.channels

import weft.channels.*
import weft.internal.cells.{CellIndex, CellSegment}

import java.util.concurrent.ConcurrentHashMap
import scala.util.{Failure, Success, Try}
import weft.{Listener, Source}
import weft.internal.channels.Cells.*
import weft.internal.channels.CellChannel.{index, isClosed, moveForward}

/**
 * `sendSource(x)` of a [[CellChannel]]: sends at once if that needs no waiting (a parked reader,
 * room in the buffer); otherwise claims a cell by FAA like `send` and parks a listener-carrying
 * [[Cells.Sender]] there. A reader (or the buffer window) completes it under the listener's lock;
 * a sender whose select was won elsewhere is found with its lock retired, and its cell is broken:
 * its value is not sent. Dropping the listener breaks the cell the same way.
 */
private[weft] final class SendSource[T](ch: CellChannel[T], v: AnyRef)
    extends Source[Try[Unit]],
      weft.internal.select.SelectClause:
  private val waiting = ConcurrentHashMap[Listener[Try[Unit]], Sender]()

  def clauseTarget: AnyRef = ch
  def parksInCell: Boolean = false
  def parkCase(k: Listener[Any]): AnyRef | Null =
    throw UnsupportedOperationException("a send case never parks in a read cell")
  def withdrawCase(token: AnyRef): Unit = ()
  def spinBeforePark(done: => Boolean): Unit = ()

  /** The failure of a send on the closed channel (see [[CellChannel.closedException]]). */
  private[weft] def closedException(): ChannelClosedException = ch.closedException()

  def onComplete(k: Listener[Try[Unit]]): Unit =
    if !poll(k) then
      val w = Sender(v, null, k, this, waiting)
      waiting.put(k, w)
      addSender(w)

  def dropListener(k: Listener[Try[Unit]]): Unit =
    val w = waiting.remove(k)
    if w != null then
      w.dropped = true
      if w.acquire() then
        val seg = w.segment
        if seg != null then seg.nn.cells.compareAndSet(w.index, w, Cells.Broken)
        w.kill()

  /**
   * Sends `v` for listener `k` now if no waiting is needed (see [[SendableChannel.trySend]]);
   * `true` if `k` was completed (or is gone), `false` if the send would have to wait.
   */
  def poll(k: Listener[Try[Unit]]): Boolean =
    while true do
      val h = ch.sendHint.get()
      val s = ch.senders
      if isClosed(s) then return k.completeNow(Failure(ch.closedException()), this)
      val seg = h.find(CellChannel.segmentId(s))
      val i = index(s)
      val st = seg.cells.get(i)
      if st eq Broken then ch.casSenders(s)
      else if st.isInstanceOf[SelectReader] then
        val done = pollSelectReader(k, seg, i, s, st.asInstanceOf[SelectReader])
        if done then return true
      else
        val ready = st match
          case _: Reader => true
          case InBuffer  => true
          case null      => ch.canBuffer(s)
          case _         => false
        // A cell already holding another sender's value means `s` is stale (that sender claimed
        // it meanwhile): retry at the new counter. Found by Lincheck (a racing trySend on an
        // unbounded channel reported "full").
        if !ready then
          if ch.senders == s then return false
        else if !k.acquireLock() then return true
        else if !ch.casSenders(s) then k.releaseLock()
        else
          moveForward(ch.sendHint, seg)
          // Store without notifying the watch list: `k`'s lock is held here, and serving a
          // watcher acquires other listeners' locks, outside the global order (a deadlock found
          // by the stress suite). Notify once `k` is completed and its lock released.
          if putOwned(seg, i, v, notify = false) then
            k.complete(Success(()), this)
            if ch.reads.watching then ch.reads.notifyWatchers()
            return true
          k.releaseLock()
    false

  /**
   * [[poll]] found a select case parked in cell `s` (not yet claimed by a sender): takes both
   * locks in the global order, claims the cell by CAS on S and completes both. `true` if `k` is
   * finished (sent, or gone); `false` to look again (the select was over: its cell is broken).
   */
  private def pollSelectReader(
      k: Listener[Try[Unit]],
      seg: CellSegment,
      i: Int,
      s: Long,
      sr: SelectReader
  ): Boolean =
    val kl = k.lock
    val res =
      if kl == null then if sr.lock.acquire() then Locked else FirstGone
      else lockPair(sr.lock, kl)
    res match
      case Locked =>
        if ch.casSenders(s) then
          moveForward(ch.sendHint, seg)
          // Under both locks nobody else can move the reader out of its cell.
          if seg.cells.compareAndSet(i, sr, Done) then
            sr.complete(Success(decode[Any](v)), ch.reads)
            k.complete(Success(()), this)
            return true
        sr.lock.release()
        k.releaseLock()
        false
      case FirstGone =>
        seg.cells.compareAndSet(i, sr, Broken)
        false
      case SecondGone => true
      case _          =>
        // One select both reading and sending here: not cell-eligible, never met.
        throw IllegalStateException("a select send met its own read")

  /**
   * Stores `v` in an owned cell known not to need waiting; `false` if the cell is broken. With
   * `notify`, a stored value is offered to the watch list at once (never while holding a lock).
   */
  private def putOwned(seg: CellSegment, i: Int, v: AnyRef, notify: Boolean): Boolean =
    while true do
      seg.cells.get(i) match
        case st @ (null | InBuffer) =>
          if seg.cells.compareAndSet(i, st, v) then return !notify || ch.stored()
        case r: Reader =>
          if declined(seg, i, r) then return false
          if seg.cells.compareAndSet(i, r, Done) then
            r.wake(v)
            return true
        case _ => return false
    false

  /**
   * Registers a send-source listener: claims a cell and completes or parks `w` there. Also
   * re-registers `w` after a select reader that claimed its cell handed it back (see
   * [[SelectCells]]): `w` then re-reads `segment`/`index` and `dropped` as on first registration.
   */
  private[weft] def addSender(w: Sender): Unit =
    while true do
      val h = ch.sendHint.get()
      val s: Long = ch.claimSend()
      if isClosed(s) then
        if w.acquire() then w.finish(Closed)
        return
      val seg = ch.segmentFor(ch.sendHint, h, s)
      val i = index(s)
      var cellDone = false
      while !cellDone do
        seg.cells.get(i) match
          case st @ (null | InBuffer) =>
            if st == InBuffer || ch.canBuffer(s) then
              if !w.acquire() then return breakCell(seg, i)
              if seg.cells.compareAndSet(i, st, w.value) then
                w.finish(Done)
                ch.stored()
                return
              w.release()
            else
              w.segment = seg
              w.index = i
              if seg.cells.compareAndSet(i, null, w) then
                if ch.reads.watching then ch.reads.notifyWatchers()
                if w.dropped then seg.cells.compareAndSet(i, w, Broken)
                else if isClosed(ch.senders) then ch.closeSender(seg, i, w)
                return
          case r: Reader =>
            if !w.acquire() then return breakCell(seg, i)
            if !declined(seg, i, r) && seg.cells.compareAndSet(i, r, Done) then
              r.wake(w.value)
              w.finish(Done)
              return
            w.release()
          case sr: SelectReader =>
            lockPair(w.lock.nn, sr.lock) match
              case Locked =>
                if seg.cells.compareAndSet(i, sr, Done) then
                  sr.complete(Success(decode[Any](w.value)), ch.reads)
                  w.finish(Done)
                  return
                sr.lock.release()
                w.release()
              case FirstGone =>
                // This send is gone, the select case waiting here may be live: re-register it.
                if seg.cells.compareAndSet(i, sr, Broken) then SelectCells.rehome(ch, sr)
                return
              case SecondGone => seg.cells.compareAndSet(i, sr, Broken)
              case _          => throw IllegalStateException("a select send met its own read")
          case _ => cellDone = true

  /** Marks an owned cell broken for a sender that is gone; a parked reader retries. */
  private def breakCell(seg: CellSegment, i: Int): Unit =
    while true do
      seg.cells.get(i) match
        case st @ (null | InBuffer) => if seg.cells.compareAndSet(i, st, Broken) then return
        case r: Reader =>
          if seg.cells.compareAndSet(i, r, Broken) then
            r.wake(Broken)
            return
        case sr: SelectReader =>
          if seg.cells.compareAndSet(i, sr, Broken) then
            SelectCells.rehome(ch, sr)
            return
        case _ => return
