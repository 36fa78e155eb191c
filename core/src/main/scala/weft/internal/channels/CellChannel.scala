package weft
package internal.channels

import weft.channels.*
import weft.internal.cells.{CellIndex, CellSegment}

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicReference}
import scala.compiletime.uninitialized
import scala.util.{Failure, Success, Try}
import weft.{Async, Source}
import weft.runtime.Fiber
import weft.internal.async.Parking
import weft.internal.runtime.CacheLine

/**
 * The one implementation of every channel kind: rendezvous (`capacity == 0`), buffered
 * (`capacity > 0`) and unbounded (`capacity == Unbounded`).
 *
 * ==Algorithm (after Koval, Alistarh and Elizarov, "Fast and Scalable Channels in Kotlin
 * Coroutines", PPoPP 2023)==
 * An infinite array of cells, allocated as linked [[CellSegment]]s of 32, and two counters:
 * `senders` (S) and `receivers` (R). A blocking `send` claims cell `s = FAA(S)`, a blocking
 * `read` claims cell `r = FAA(R)`; the sender and the reader with the same index meet in that
 * cell, whoever comes first leaving something for the other, all by CAS on the cell:
 *   - a sender finding the cell empty stores its value if it may buffer (unbounded; or
 *     `s < R + capacity`; or the cell was marked `InBuffer`), else parks there as a
 *     [[Cells.Sender]]; finding a parked [[Cells.Reader]] it hands the value over;
 *   - a reader finding a value takes it; finding a parked sender it takes the value and wakes
 *     it; finding the cell empty it parks there as a [[Cells.Reader]];
 *   - a party that gives up (its fiber interrupted, its future cancelled) CASes its own waiter
 *     to `Broken`; if the CAS fails, the other side already completed it and the exchange
 *     stands. A side that finds `Broken` claims the next cell. So a value is delivered once or
 *     not at all, and a sender learns which.
 * Buffering: the reader of cell `r` makes cell `r + capacity` buffer-eligible ("expand"): it
 * marks an empty cell `InBuffer`, or turns a parked sender there into a buffered value and
 * wakes it. With the sender's own `s < R + capacity` test this gives every cell below
 * `R + capacity` to the buffer exactly once, with no counter beyond S and R.
 *
 * Closing sets a bit in S (no sender claims a cell after it) and records `closedAt`, the cells
 * claimed before. Cells below `closedAt` still get their values or their waiting senders
 * failed; readers of cells at or above `closedAt` get `Failure(ChannelClosedException)`.
 * Buffered values are therefore drained before readers see the failure.
 *
 * Closing with an error (`error(cause)`) records the cause in `failure` before it sets the bit;
 * a reader that sees the bit and a recorded failure fails at once, whatever its cell, so the
 * buffered values are dropped. A reader that claimed a cell before the close and finds a value
 * there still takes it (its read overlapped the close); one that finds its cell empty breaks it
 * and fails, and the sender of that cell then finds it broken and fails too.
 *
 * ==Sources (select, race, filter)==
 * A send source ([[SendSource]]) claims a cell like `send` (a [[Cells.Sender]] carrying its
 * listener and lock). Listeners of `canRead` ([[ReadSource]]) are different because they may
 * decline: they never claim cells by FAA. They wait in a watch list ([[Cells.Watch]]) and peek at
 * the head cell `R`: when it holds a value they accept, they take their lock (and the parked
 * sender's, in global order), CAS R from `r` to `r + 1` and take the value. A value they decline
 * stays at the head for others, as [[ReadableChannel.canRead]] specifies. Every change of the
 * head (a value stored, R advanced, close) re-offers the head to the watchers. See
 * docs/adr/0001-channel-algorithm.md.
 *
 * Files: this one holds the counters, the blocking calls, the buffer window and closing;
 * `cells.scala` the segment list and cell states; `ReadSource.scala` and `SendSource.scala` the
 * listener side.
 */
private[weft] class CellChannel[T](capacity: Int) extends Channel[T]:
  import Cells.*
  import CellChannel.*

  // S and R live in one array, 64 bytes apart and 64 bytes from its ends: each on its own cache
  // line, apart from the read-mostly fields of the channel. Kept as fields of this object they
  // shared its cache line, and every FAA by the sender stalled the reader's FAA and its reads of
  // `watchers`, `closedAt`, the hints. A 128-byte spacing gained nothing and made each channel
  // larger, which costs channel-chain-1000 (a thousand channels). The channel-unbounded and
  // channel-chain-1000 benchmarks re-check it; figures in docs/perf/channels.md.
  private val counts = new Array[Long](CountsLength)
  @volatile private[weft] var closedAt: Long = Long.MaxValue
  // The cause given to `error`, written before the closed bit (so whoever sees the bit sees it);
  // `null` for a channel closed by `close()` or still open.
  @volatile private[weft] var failure: Throwable | Null = uninitialized
  private[weft] val sendHint =
    AtomicReference[CellSegment](CellSegment.first(SegmentShift, removable = false))
  private[weft] val recvHint = AtomicReference[CellSegment](sendHint.get())
  private val closing = AtomicBoolean()

  private val unbounded = capacity == Unbounded
  private val bounded = capacity > 0 && !unbounded

  /** S: the cells claimed by senders, with [[CellChannel.ClosedBit]] once closed. */
  private[weft] inline def senders: Long = COUNT.getVolatile(counts, SendersAt)

  /** R: the cells claimed by readers. */
  private[weft] inline def receivers: Long = COUNT.getVolatile(counts, ReceiversAt)

  /** Claims the next sender cell (FAA on S); the old S, closed bit included. */
  private[weft] inline def claimSend(): Long = COUNT.getAndAdd(counts, SendersAt, 1L)

  /** Claims the next reader cell (FAA on R); the old R. */
  private[weft] inline def claimReceive(): Long = COUNT.getAndAdd(counts, ReceiversAt, 1L)

  /**
   * Whether the channel is closed and a reader of cell `r` gets the failure: `r` is at or above
   * `closedAt`, or the channel was closed with an error (buffered values are dropped). Reads
   * `closedAt` first: it sits on a line the senders do not write; `r` is evaluated last.
   */
  private[weft] inline def isClosedAt(inline r: Long): Boolean =
    closedAt != Long.MaxValue && isClosed(senders) && (failure != null || r >= closedAt)

  /** The exception of a closed channel: [[ChannelFailedException]] after `error`. */
  private[weft] def closedException(): ChannelClosedException =
    val cause = failure
    if cause == null then ChannelClosedException() else ChannelFailedException(cause)

  /** The failure a reader of a closed channel gets. */
  private[weft] def closedFailure[A]: Try[A] = Failure(closedException())

  /** Whether this is a rendezvous channel (select cases may park in its cells). */
  private[weft] val rendezvous: Boolean = capacity == 0

  /** Moves S from `s` to `s + 1` (a cell taken without FAA); `false` if S moved meanwhile. */
  private[weft] inline def casSenders(s: Long): Boolean =
    COUNT.compareAndSet(counts, SendersAt, s, s + 1)

  /** Moves R from `r` to `r + 1` (a head taken by a listener); `false` if R moved meanwhile. */
  private[weft] inline def casReceivers(r: Long): Boolean =
    COUNT.compareAndSet(counts, ReceiversAt, r, r + 1)

  // How long a waiter spins before parking: adaptive on a rendezvous, never on a buffer.
  private[weft] val spin = SpinPolicy(rendezvous = capacity == 0)

  // ---- blocking send ----

  def send(x: T)(using Async): Unit =
    val v = encode(x)
    var sent = false
    while !sent do
      val h = sendHint.get()
      val s: Long = claimSend()
      if isClosed(s) then throw closedException()
      val seg = segmentFor(sendHint, h, s)
      sent = sendInCell(seg, index(s), s, v)

  /** Sends in the claimed cell; `false` if the cell is broken (claim another). */
  private def sendInCell(seg: CellSegment, i: Int, s: Long, v: AnyRef)(using Async): Boolean =
    while true do
      seg.cells.get(i) match
        case null =>
          if canBuffer(s) then
            if seg.cells.compareAndSet(i, null, v) then return stored()
          else
            val w = Sender(v, Fiber.current, null, null, null)
            if seg.cells.compareAndSet(i, null, w) then
              if reads.watching then reads.notifyWatchers()
              return awaitSender(w, seg, i)
        case InBuffer => if seg.cells.compareAndSet(i, InBuffer, v) then return stored()
        case r: Reader =>
          if declined(seg, i, r) then return false
          if seg.cells.compareAndSet(i, r, Done) then
            r.wake(v)
            return true
        case sr: SelectReader => if SelectCells.sendTo(this, sr, v) then return true
        case _                => return false
    false

  private def awaitSender(w: Sender, seg: CellSegment, i: Int)(using Async): Boolean =
    if isClosed(senders) && seg.cells.compareAndSet(i, w, Broken) then
      throw closedException()
    var interrupted = false
    spin.beforePark(w.outcome != null)
    while w.outcome == null do
      if Parking.parkOnce(w) then
        if seg.cells.compareAndSet(i, w, Broken) then throw Parking.gaveUp("send")
        interrupted = true
    // `Broken`: a cancelled reader declined the value (`declinesSender`); claim another cell,
    // unless this sender gave up meanwhile, as if it had broken the cell itself.
    if w.outcome eq Broken then
      if interrupted then throw Parking.gaveUp("send")
      return false
    if interrupted then Fiber.selfInterrupt()
    if w.outcome eq Closed then throw closedException()
    true

  // ---- blocking read ----

  override def read()(using Async): Try[T] =
    while true do
      // `closedAt` first: it sits on a line the sender does not write, unlike S.
      if isClosedAt(receivers) then return closedFailure
      val h = recvHint.get()
      val r: Long = claimReceive()
      val seg = segmentFor(recvHint, h, r)
      if bounded then expand(seg, r + capacity)
      val res = readCell(seg, index(r), r)
      if reads.watching then reads.notifyWatchers()
      if res eq Closed then return closedFailure
      if res ne Broken then return Success(decode[T](res))
    closedFailure

  /** Reads the claimed cell: a value, `Closed`, or `Broken` (claim another). */
  private def readCell(seg: CellSegment, i: Int, r: Long)(using Async): AnyRef =
    while true do
      seg.cells.get(i) match
        case st @ (null | InBuffer) =>
          // `isClosedAt` reads `closedAt` before S: this reader waits here in every rendezvous
          // round, and S is the line the sender has just written by its FAA.
          if isClosedAt(r) then
            if seg.cells.compareAndSet(i, st, Broken) then return Closed
          else
            val rd = Reader(Fiber.current, summon[Async])
            if seg.cells.compareAndSet(i, st, rd) then return awaitReader(rd, seg, i, r)
        case snd: Sender =>
          if declinesSender(seg, i, snd) then
            if reads.watching then reads.notifyWatchers()
            throw Parking.gaveUp("read")
          if snd.acquire() then
            if seg.cells.compareAndSet(i, snd, Done) then
              snd.finish(Done)
              return snd.value
            snd.release()
          else seg.cells.compareAndSet(i, snd, Broken)
        case Broken => return Broken
        case v =>
          seg.cells.lazySet(i, Done)
          return v
    Broken

  /**
   * Whether this reader, meeting a parked blocking sender in its cell, must leave the value: its
   * future was cancelled (its result already set) before it claimed the cell, so a value taken
   * now would be lost with it. It breaks the cell and wakes the sender, which claims another
   * cell: the value goes to the next reader, as when a sender meets a cancelled parked reader
   * (`Cells.declined`). A sender that parked before the cancel is met here too, since only the
   * claim orders them. `CancelledBeforeClaimSuite` opens the window deterministically.
   * `false` if the cell changed meanwhile (the caller looks at it again).
   */
  private def declinesSender(seg: CellSegment, i: Int, snd: Sender)(using async: Async): Boolean =
    if snd.isBlocking && async.cancellationPending && seg.cells.compareAndSet(i, snd, Broken) then
      snd.finish(Broken)
      true
    else false

  private def awaitReader(rd: Reader, seg: CellSegment, i: Int, r: Long)(using Async): AnyRef =
    if isClosedAt(r) && seg.cells.compareAndSet(i, rd, Broken) then
      return Closed
    var interrupted = false
    spin.beforePark(rd.outcome != null)
    while rd.outcome == null do
      if Parking.parkOnce(rd) then
        if seg.cells.compareAndSet(i, rd, Broken) then throw Parking.gaveUp("read")
        interrupted = true
    val out = rd.outcome.nn
    // A sender won the cell before our CAS to `Broken`: the value is ours, even when our future
    // was cancelled after the sender's check (`Cells.declined`). Returned, with the interrupt
    // raised again for the next wait; throwing here would lose it (`CancelledReaderSuite`).
    if interrupted then
      if out eq Broken then throw Parking.gaveUp("read")
      Fiber.selfInterrupt()
    out

  // ---- buffer window ----

  /** Makes cell `idx` buffer-eligible (the reader of `idx - capacity` arrived). */
  private def expand(from: CellSegment, idx: Long): Unit =
    val seg = from.find(segmentId(idx))
    val i = index(idx)
    while true do
      seg.cells.get(i) match
        case null => if seg.cells.compareAndSet(i, null, InBuffer) then return
        case snd: Sender =>
          if snd.acquire() then
            if seg.cells.compareAndSet(i, snd, snd.value) then
              snd.finish(Done)
              return
            snd.release()
          else if seg.cells.compareAndSet(i, snd, Broken) then return
        case _ => return

  /** Whether the sender of cell `s` may store its value without waiting. */
  private[weft] inline def canBuffer(s: Long): Boolean =
    unbounded || (bounded && s < receivers + capacity)

  /** After a value was stored in a cell: offers it to waiting source listeners. */
  private[weft] def stored(): Boolean =
    if reads.watching then reads.notifyWatchers()
    true

  /** After a listener moved R past cell `r` of `seg`: hint forward, buffer window forward. */
  private[weft] def afterAdvance(seg: CellSegment, r: Long): Unit =
    moveForward(recvHint, seg)
    if bounded then expand(seg, r + capacity)

  // ---- sources ----

  /** The read source, which keeps the watch list of listening readers. */
  private[weft] val reads: ReadSource[T] = ReadSource[T](this)

  val canRead: Source[Try[T]] = reads

  def sendSource(x: T): Source[Try[Unit]] = SendSource[T](this, encode(x))

  // ---- closing ----

  def close(): Unit = closeWith(null)

  def error(cause: Throwable): Unit =
    if cause == null then throw IllegalArgumentException("error(cause): cause must not be null")
    closeWith(cause)

  /** Closes the channel once, "done" (`cause == null`) or failed; see the header. */
  private def closeWith(cause: Throwable | Null): Unit =
    if !closing.compareAndSet(false, true) then
      var spins = 0
      while !isClosed(senders) do
        Fiber.spinPause(spins)
        spins += 1
    else
      failure = cause
      var done = false
      while !done do
        val s = senders
        closedAt = s
        done = COUNT.compareAndSet(counts, SendersAt, s, s | ClosedBit)
      sweep()
      reads.notifyWatchers()

  /**
   * Fails the senders parked below `closedAt` and the readers parked at or above it. After
   * `error`, a reader parked below `closedAt` is left to its sender, which claimed its cell
   * before the close and will hand it a value (or break the cell and fail).
   */
  private def sweep(): Unit =
    val rh = recvHint.get()
    val sh = sendHint.get()
    val r0 = receivers
    val end = math.max(receivers, closedAt)
    val from = math.min(r0, closedAt)
    var seg = if rh.id <= sh.id then rh else sh
    var idx = seg.id << SegmentShift
    while idx < end do
      if idx >= from then
        val i = index(idx)
        seg.cells.get(i) match
          case snd: Sender if idx < closedAt => closeSender(seg, i, snd)
          case rd: Reader if idx >= closedAt =>
            if seg.cells.compareAndSet(i, rd, Broken) then rd.wake(Closed)
          case sr: SelectReader if idx >= closedAt => SelectCells.closeReader(this, sr)
          case _                                   => ()
      idx += 1
      if index(idx) == 0 then seg = seg.find(segmentId(idx))

  /** Fails a parked sender of cell `i` at close (or breaks the cell if it is gone). */
  private[weft] def closeSender(seg: CellSegment, i: Int, snd: Sender): Unit =
    if snd.acquire() then
      if seg.cells.compareAndSet(i, snd, Broken) then snd.finish(Closed) else snd.release()
    else seg.cells.compareAndSet(i, snd, Broken)

  // ---- helpers ----

  /** The segment of cell `idx`, found from hint `h`; moves `hint` forward to it. */
  private[weft] def segmentFor(
      hint: AtomicReference[CellSegment],
      h: CellSegment,
      idx: Long
  ): CellSegment =
    CellIndex.segmentFor(hint, h, idx, SegmentShift)(_ => ())

  override def toString: String =
    val s = senders
    s"Channel(capacity=$capacity, S=${count(s)}, R=$receivers, closed=${isClosed(s)})"

/** Constants and helpers of [[CellChannel]]. */
private[weft] object CellChannel:
  /** The capacity that stands for "unbounded". */
  inline val Unbounded = Int.MaxValue

  /** Bit of `senders` set by close. */
  inline val ClosedBit = 1L << 62

  inline def isClosed(s: Long): Boolean = (s & ClosedBit) != 0
  inline def count(s: Long): Long = s & ~ClosedBit

  /** The index of cell `i` in its segment. */
  inline def index(i: Long): Int = CellIndex.index(i, Cells.SegmentShift)

  /** The id of the segment of cell `i`. */
  inline def segmentId(i: Long): Long = CellIndex.segmentId(i, Cells.SegmentShift)

  /** Moves a segment hint forward to `seg` (hints never move back). */
  inline def moveForward(hint: AtomicReference[CellSegment], seg: CellSegment): Unit =
    CellIndex.moveForward(hint, seg): Unit

  /** Where S and R sit in a channel's `counts` array: a cache line apart (see `CacheLine`). */
  inline def SendersAt: Int = CacheLine.slot(0, 8)
  inline def ReceiversAt: Int = CacheLine.slot(1, 8)
  inline def CountsLength: Int = CacheLine.arrayLength(2, 8)

  /** Volatile and atomic access to the `counts` array. */
  val COUNT: VarHandle = MethodHandles.arrayElementVarHandle(classOf[Array[Long]])
