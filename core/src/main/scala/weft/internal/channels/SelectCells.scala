package weft
package internal.channels

import weft.channels.*
import weft.internal.cells.{CellIndex, CellSegment}

import scala.compiletime.uninitialized
import scala.util.{Success, Try}
import weft.{Listener, ListenerLock}
import weft.internal.channels.Cells.*
import weft.internal.channels.CellChannel.index

/**
 * A case of a select parked in a rendezvous cell: the cell state that the sender of this cell
 * completes with one lock acquisition (the select's) and one CAS.
 *
 * @param k
 *   the case's listener: accepts every value; its lock is the select's, never `null`
 * @param seg
 *   the segment of the cell it was parked in
 * @param i
 *   the cell's index in `seg`
 */
private[weft] final class SelectReader(
    val k: Listener[Try[Any]],
    val seg: CellSegment,
    val i: Int
):
  /** The select's lock: whoever completes the case (or breaks a live one) holds it. */
  val lock: ListenerLock = k.lock.nn

  /** Completes the case with `v` (lock held). */
  def complete(v: Try[Any], src: ReadSource[?]): Unit =
    k.complete(v, src.asInstanceOf[weft.Source[Try[Any]]])

/**
 * The select-cell protocol: a `select` case reading a rendezvous channel claims a cell by FAA on
 * R, like a blocking `read`, and parks a [[SelectReader]] there. The sender of that cell
 * completes the select with one lock acquisition and one CAS, instead of walking the watch list
 * (docs/adr/0001-channel-algorithm.md, decision 4).
 *
 * ==Which cases==
 * Only cases that cannot decline: the listener of a [[weft.internal.select.Selector]] case (accepts every value)
 * on a rendezvous channel. A buffered value in a claimed cell could not be handed back without
 * breaking FIFO, and a filter or race listener may decline, so those keep the watch list. A
 * select that also sends on the same channel (or has a case the selector cannot see into) keeps
 * the watch list too: its send and its read would meet under one lock and could not pair.
 *
 * ==Registration holds the select's lock==
 * [[register]] acquires the select's lock L ''before'' it claims a cell and keeps it until the
 * case is parked or completed. So the select cannot be won elsewhere while it owns a claimed
 * cell that is not yet settled, and a blocking sender found in the cell is taken (CAS
 * `Sender -> Done`) under L. If L is already retired, no cell is claimed. One exception: the
 * select's future was cancelled after L was taken, so L's own check (`WaiterLock`) is behind it;
 * the registration then declines the sender it meets (breaks the cell and hands the sender back),
 * and the value goes to the next reader.
 *
 * The one exception is the global lock order: a parked send-source sender whose lock L2 is
 * numbered below L. Registration then releases L and takes both in order; if the select was won
 * meanwhile the sender is handed back: its cell is broken (only its owner or we could change
 * it) and it re-registers in a fresh cell ([[SendSource.addSender]]), its value intact. In the
 * mirror case a send source whose own select is gone meets a live [[SelectReader]] in the cell
 * it claimed: it breaks that cell and re-registers the case ([[rehome]]), again under L.
 *
 * ==Invariants==
 *   1. A [[SelectReader]] is written only into a cell its registrant claimed by FAA on R, while
 *      holding L; it leaves the cell by one CAS: to `Done` (under L, with the value handed to
 *      the case), or to `Broken` (under L by close; or by anyone once L is retired; or by a
 *      sender that re-registers the case). A case is thus completed at most once, and only while
 *      L is live, so exactly one case of a select fires.
 *   1. A sender meeting a [[SelectReader]] whose L is retired breaks the cell and claims the
 *      next one: its value stays with it. A losing case's cell is broken by the selecting fiber
 *      after the select fired (or lazily by the next sender), so a value is never lost there.
 *   1. Abandoning (an interrupted or cancelled selecting fiber) retires L under L: afterwards no
 *      case completes; the cells are broken as for a lost case.
 *   1. Close: a registrant that finds `r >= closedAt` completes its case with the failure; one
 *      already parked there is completed with the failure by `sweep` (under L). The registrant
 *      checks the closed bit after parking, `sweep` reads R after setting it, so one of the two
 *      sees the other.
 */
private[weft] object SelectCells:

  /**
   * Registers case `k` of a select on rendezvous channel `ch`: completes it if a sender is
   * parked in the claimed cell (or the channel is closed), else parks a [[SelectReader]]. Returns
   * the reader (to drop if another case wins), or `null` if the case completed or the select is
   * over (then nothing is claimed or left behind).
   */
  def register[T](ch: CellChannel[T], src: ReadSource[T], k: Listener[Try[Any]]): AnyRef | Null =
    val lock = k.lock.nn
    val from = src.asInstanceOf[weft.Source[Try[Any]]]
    // The case takes the value of blocking or send-source sender `snd` (its cell is now `Done`).
    def take(snd: Sender): Unit =
      k.complete(Success(decode[T](snd.value)), from)
      snd.finish(Done)
    if !lock.acquire() then return null
    while true do
      // L is held here.
      if ch.isClosedAt(ch.receivers) then
        k.complete(ch.closedFailure, from)
        return null
      val h = ch.recvHint.get()
      val r = ch.claimReceive()
      val seg = ch.segmentFor(ch.recvHint, h, r)
      val i = index(r)
      var cellDone = false
      while !cellDone do
        seg.cells.get(i) match
          case null =>
            if ch.isClosedAt(r) then
              if seg.cells.compareAndSet(i, null, Broken) then
                k.complete(ch.closedFailure, from)
                return null
            else
              val sr = SelectReader(k, seg, i)
              if seg.cells.compareAndSet(i, null, sr) then
                if ch.isClosedAt(r) && seg.cells.compareAndSet(i, sr, Broken) then
                  k.complete(ch.closedFailure, from)
                  return null
                lock.release()
                return sr
          case snd: Sender if ownerCancelled(lock) =>
            // The select's future was cancelled after L was taken (its check is behind us): a
            // value taken now would be lost with the future's result, already set. Leave it to
            // the next reader, as a blocking read does (`CellChannel.declinesSender`).
            if seg.cells.compareAndSet(i, snd, Broken) then
              lock.release()
              handBack(snd)
              if ch.reads.watching then ch.reads.notifyWatchers()
              return null
          case snd: Sender =>
            val l2 = snd.lock
            if l2 == null then
              // A blocking send: taken under L alone (or it broke the cell: re-read).
              if seg.cells.compareAndSet(i, snd, Done) then
                take(snd)
                return null
            else if lock.number < l2.nn.number then
              // In the global order already: take L2 while holding L.
              if !l2.nn.acquire() then seg.cells.compareAndSet(i, snd, Broken)
              else if ownerCancelled(lock) then l2.nn.release() // declined at the re-read
              else if seg.cells.compareAndSet(i, snd, Done) then
                take(snd)
                return null
              else l2.nn.release()
            else
              if lock.number == l2.nn.number then
                throw IllegalStateException("a select read met its own send (not cell-eligible)")
              lock.release()
              lockPair(lock, l2) match
                case Locked =>
                  if seg.cells.compareAndSet(i, snd, Done) then
                    take(snd)
                    return null
                  l2.nn.release() // the sender left (its cell is now Broken): keep L
                case FirstGone =>
                  // The select was won meanwhile: hand the sender back.
                  if seg.cells.compareAndSet(i, snd, Broken) then handBack(snd)
                  return null
                case _ =>
                  seg.cells.compareAndSet(i, snd, Broken)
                  if !lock.acquire() then return null
          case _ => cellDone = true // Broken (a sender left): claim the next cell
    null

  /**
   * Whether the select owning `lock` has a cancellation pending (see `WaiterLock`): its
   * registration then declines a sender it meets. `SelectCancelledBeforeClaimSuite` holds open
   * the window where it took its lock before the cancel and meets the sender after it.
   */
  private def ownerCancelled(lock: ListenerLock): Boolean = lock match
    case o: weft.internal.async.WaiterLock => o.ownerCancelled
    case _                                 => false

  /**
   * Gives back sender `snd`, whose cell a declining select broke (no lock held): a blocking send
   * is woken to claim another cell, a send source re-registers in a fresh one, its value intact.
   */
  private def handBack(snd: Sender): Unit =
    if snd.isBlocking then snd.finish(Broken)
    else snd.source.asInstanceOf[SendSource[?]].addSender(snd)

  /**
   * Re-registers the case of `sr`, whose cell a departing send source has broken: the case is
   * still live (or [[register]] finds its lock retired and does nothing).
   */
  def rehome(ch: CellChannel[?], sr: SelectReader): Unit =
    register(ch.asInstanceOf[CellChannel[Any]], ch.reads.asInstanceOf[ReadSource[Any]], sr.k)

  /**
   * A blocking sender of value `v` meets `sr` in its cell: `true` if it completed the case,
   * `false` if the select is over (the cell is then broken; claim the next one).
   */
  def sendTo(ch: CellChannel[?], sr: SelectReader, v: AnyRef): Boolean =
    if sr.lock.acquire() then
      if sr.seg.cells.compareAndSet(sr.i, sr, Done) then
        sr.complete(Success(decode[Any](v)), ch.reads)
        return true
      sr.lock.release()
    else sr.seg.cells.compareAndSet(sr.i, sr, Broken)
    false

  /** Fails a case parked at or above `closedAt` (close), or breaks its cell if it is over. */
  def closeReader(ch: CellChannel[?], sr: SelectReader): Unit =
    if sr.lock.acquire() then
      if sr.seg.cells.compareAndSet(sr.i, sr, Broken) then sr.complete(ch.closedFailure, ch.reads)
      else sr.lock.release()
    else sr.seg.cells.compareAndSet(sr.i, sr, Broken)

  /** Withdraws a parked case whose select is over (a no-op if its cell moved on). */
  def drop(token: AnyRef): Unit =
    val sr = token.asInstanceOf[SelectReader]
    sr.seg.cells.compareAndSet(sr.i, sr, Broken)
