package weft
package internal.channels

import weft.channels.*
import weft.internal.cells.{CellIndex, CellSegment}

import java.util.concurrent.atomic.AtomicReference
import scala.util.{Success, Try}
import weft.{Listener, Source}
import weft.internal.channels.Cells.*
import weft.internal.channels.CellChannel.{count, index, isClosed}
import weft.runtime.Fiber

/**
 * `canRead` of a [[CellChannel]], and the channel's watch list: readers that are listeners.
 *
 * Listeners may decline a value (a filter, a lost race), so they never claim a cell by FAA.
 * Each waits in the watch list as a [[Cells.Watch]] and peeks at the head cell `R`: when it
 * holds a value the listener accepts, it takes its lock (and a parked sender's, in the global
 * order), CASes R from `r` to `r + 1` and takes the value. A declined value stays at the head for
 * others, as [[ReadableChannel.canRead]] specifies. Every change of the head (a value stored,
 * R advanced, close) re-offers the head to the watchers ([[notifyWatchers]]). A listener is
 * registered before it is served, so a value stored meanwhile is not missed.
 */
private[weft] final class ReadSource[T](ch: CellChannel[T])
    extends Source[Try[T]],
      weft.internal.select.SelectClause:
  private val watchers = AtomicReference[List[Watch[T]]](Nil)

  def clauseTarget: AnyRef = ch
  def parksInCell: Boolean = ch.rendezvous
  def parkCase(k: Listener[Any]): AnyRef | Null =
    SelectCells.register(ch, this, k.asInstanceOf[Listener[Try[Any]]])
  def withdrawCase(token: AnyRef): Unit = SelectCells.drop(token)
  def spinBeforePark(done: => Boolean): Unit = ch.spin.beforePark(done)

  /** Whether any listener waits in the watch list. */
  inline def watching: Boolean = watchers.get() ne Nil

  def poll(k: Listener[Try[T]]): Boolean =
    val w = Watch(k)
    val finished = serve(w)
    if finished && watching then notifyWatchers()
    finished

  def onComplete(k: Listener[Try[T]]): Unit =
    // Registered first, then served: a value stored meanwhile is not missed. No serve before
    // registering: a listener arrives here after a poll that found nothing (`Async.await`,
    // `Selector`), and each serve reads cells and counters the senders are writing.
    val w = Watch(k)
    addWatch(w)
    if serve(w) then
      removeWatch(w)
      if watching then notifyWatchers()

  def dropListener(k: Listener[Try[T]]): Unit =
    var ws = watchers.get()
    while ws ne Nil do
      val w = ws.head
      if w.k == k then
        removeWatch(w)
        w.kill()
        return
      ws = ws.tail

  /** Adds `w` to the watch list. */
  private def addWatch(w: Watch[T]): Unit =
    var done = false
    while !done do
      val ws = watchers.get()
      done = watchers.compareAndSet(ws, w :: ws)

  /** Removes `w` from the watch list (if there). */
  private def removeWatch(w: Watch[T]): Unit =
    var done = false
    while !done do
      val ws = watchers.get()
      // The usual case, one watcher, without building a new list.
      if ws eq Nil then done = true
      else if (ws.head eq w) && (ws.tail eq Nil) then done = watchers.compareAndSet(ws, Nil)
      else if !ws.exists(_ eq w) then done = true
      else done = watchers.compareAndSet(ws, ws.filterNot(_ eq w))

  /** Re-offers the head to every watcher until none takes anything. */
  private[weft] def notifyWatchers(): Unit =
    var progress = true
    while progress do
      progress = false
      var ws = watchers.get()
      while ws ne Nil do
        val w = ws.head
        if serve(w) then
          removeWatch(w)
          progress = true
        ws = ws.tail

  /**
   * Offers the head cell to `w`: `true` if `w` is finished (it took a value or the closed
   * failure, or it was completed elsewhere), `false` if nothing it accepts is at the head.
   */
  private[weft] def serve(w: Watch[T]): Boolean =
    var claimedSpins = 0
    while true do
      val h = ch.recvHint.get()
      val r = ch.receivers
      val s = ch.senders
      // Once closed, cells at or above `closedAt` never get a value, although S still counts
      // the sends that close refused (`send` claims its cell before it sees the bit): waiting
      // for a store there would spin forever. After `error` every reader fails, whatever its cell.
      if isClosed(s) && (r >= ch.closedAt || ch.failure != null) then return offerClosed(w)
      if r >= count(s) then return false
      val seg = h.find(CellChannel.segmentId(r))
      val i = index(r)
      seg.cells.get(i) match
        case null | InBuffer =>
          // Cell r is claimed (r < S) and its sender has not stored yet: it is between its
          // claim and its store, a few instructions. Answering "nothing" here would let a
          // `tryRead` miss a value whose `trySend` in a later cell had already returned (found
          // by Lincheck on an unbounded channel), so wait for the store.
          Fiber.spinPause(claimedSpins)
          claimedSpins += 1
        case Broken          => if advanceReceivers(seg, r) then ()
        case Done            => ()
        case _: Reader       => ()
        case _: SelectReader => ()
        case snd: Sender =>
          val v = decode[T](snd.value)
          if !w.k.accepts(Success(v)) then return false
          lockPair(w.lock, snd.lock) match
            case FirstGone  => return true
            case SecondGone => seg.cells.compareAndSet(i, snd, Broken)
            case SameLock =>
              if r + 1 >= count(ch.senders) then return false // nothing behind: wait
              if !handBackOwnSend(seg, i, r, snd, w) then return true
            case _ =>
              if !ch.casReceivers(r) then
                snd.release()
                w.lock.release()
              else if seg.cells.compareAndSet(i, snd, Done) then
                w.complete(Success(v), this)
                snd.finish(Done)
                ch.afterAdvance(seg, r)
                return true
              else
                snd.release()
                val now = seg.cells.get(i)
                if now eq Broken then
                  w.lock.release()
                  ch.afterAdvance(seg, r)
                else
                  seg.cells.lazySet(i, Done)
                  w.complete(Success(decode[T](now.nn)), this)
                  ch.afterAdvance(seg, r)
                  return true
        case value =>
          val v = decode[T](value)
          if !w.k.accepts(Success(v)) then return false
          if !w.lock.acquire() then return true
          if ch.casReceivers(r) then
            seg.cells.lazySet(i, Done)
            w.complete(Success(v), this)
            ch.afterAdvance(seg, r)
            return true
          w.lock.release()
    false

  /**
   * The head cell `r` holds a send of `w`'s own select (a select both reading and sending on this
   * channel). `w` can never take it, and a value sent behind it would wait for another reader
   * that may never come: the select would wait forever with a value in reach. So, when any cell
   * is claimed behind it, the send is handed back: under the select's lock its cell is broken
   * (as if the send had left), the head skips it, and the send re-registers in a fresh cell
   * behind the others ([[SendSource.addSender]], which also re-registers senders handed back by
   * [[SelectCells]]), its value intact. A send case holds no place in the order until it fires.
   * Called only with a cell claimed behind `r`; `false` if the select is already over (its send
   * is then dropped by the select), `true` to look at the new head.
   */
  private def handBackOwnSend(
      seg: CellSegment,
      i: Int,
      r: Long,
      snd: Sender,
      w: Watch[T]
  ): Boolean =
    if !w.lock.acquire() then return false
    val handedBack = seg.cells.compareAndSet(i, snd, Broken)
    w.lock.release()
    if handedBack then
      advanceReceivers(seg, r)
      snd.source.asInstanceOf[SendSource[?]].addSender(snd)
    true

  /** Skips a broken head cell. */
  private def advanceReceivers(seg: CellSegment, r: Long): Boolean =
    ch.casReceivers(r) && { ch.afterAdvance(seg, r); true }

  /** Offers the closed failure to `w`: as [[serve]]. */
  private def offerClosed(w: Watch[T]): Boolean =
    val f = ch.closedFailure[T]
    if !w.k.accepts(f) then false
    else if !w.lock.acquire() then true
    else
      w.complete(f, this)
      true
