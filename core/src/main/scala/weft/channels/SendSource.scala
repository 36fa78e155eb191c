package weft.channels

import java.util.concurrent.ConcurrentHashMap
import scala.util.{Failure, Success, Try}
import weft.{Listener, Source}
import weft.channels.Cells.*
import weft.channels.CellChannel.{index, isClosed, moveForward}

/**
 * `sendSource(x)` of a [[CellChannel]]: sends at once if that needs no waiting (a parked reader,
 * room in the buffer); otherwise claims a cell by FAA like `send` and parks a listener-carrying
 * [[Cells.Sender]] there. A reader (or the buffer window) completes it under the listener's lock;
 * a sender whose select was won elsewhere is found with its lock retired, and its cell is broken:
 * its value is not sent. Dropping the listener breaks the cell the same way.
 */
private[channels] final class SendSource[T](ch: CellChannel[T], v: AnyRef)
    extends Source[Try[Unit]]:
  private val waiting = ConcurrentHashMap[Listener[Try[Unit]], Sender]()

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
      if isClosed(s) then return k.completeNow(Failure(ChannelClosedException()), this)
      val seg = h.find(s / SegmentSize)
      val i = index(s)
      val st = seg.cells.get(i)
      if st eq Broken then ch.casSenders(s)
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
   * Stores `v` in an owned cell known not to need waiting; `false` if the cell is broken. With
   * `notify`, a stored value is offered to the watch list at once (never while holding a lock).
   */
  private def putOwned(seg: Segment, i: Int, v: AnyRef, notify: Boolean): Boolean =
    while true do
      seg.cells.get(i) match
        case st @ (null | InBuffer) =>
          if seg.cells.compareAndSet(i, st, v) then return !notify || ch.stored()
        case r: Reader =>
          if seg.cells.compareAndSet(i, r, Done) then
            r.wake(v)
            return true
        case _ => return false
    false

  /** Registers a send-source listener: claims a cell and completes or parks `w` there. */
  private def addSender(w: Sender): Unit =
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
            if seg.cells.compareAndSet(i, r, Done) then
              r.wake(w.value)
              w.finish(Done)
              return
            w.release()
          case _ => cellDone = true

  /** Marks an owned cell broken for a sender that is gone; a parked reader retries. */
  private def breakCell(seg: Segment, i: Int): Unit =
    while true do
      seg.cells.get(i) match
        case st @ (null | InBuffer) => if seg.cells.compareAndSet(i, st, Broken) then return
        case r: Reader =>
          if seg.cells.compareAndSet(i, r, Broken) then
            r.wake(Broken)
            return
        case _ => return
