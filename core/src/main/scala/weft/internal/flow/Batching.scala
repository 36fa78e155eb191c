package weft
package internal.flow

import java.util.concurrent.atomic.AtomicBoolean
import scala.util.{Failure, Success, Try}
import weft.channels.{Channel, ChannelFailedException}

/**
 * Batching at an asynchronous boundary: each feeding fiber gathers its elements into a batch
 * while the consumer is busy, so that a fast producer crosses the channel once per batch
 * rather than once per element, and a waiting consumer still gets each element at once.
 *
 * The channel carries single elements, or a [[Batching.Batch]] of several. Each feeder has a
 * [[Batching.Writer]]: its pending elements behind a small spin lock, and the consumer's shared
 * `hungry` flag. A feeder hands its pending elements over at once when the consumer is hungry
 * and otherwise when `max` have gathered, with a `send` that waits outside the lock (the
 * back-pressure; a full channel means the consumer has work anyway).
 *
 * The consumer ([[Batching.Reader]]), finding the channel empty, sets `hungry` and then, under
 * each feeder's lock in turn, looks at the channel once more and takes that feeder's pending
 * elements if the channel is still empty; only when all of that finds nothing does it wait on
 * the channel. Why nothing is lost or reordered:
 *   - a feeder's add either comes before the consumer's look under its lock (the consumer takes
 *     it) or after it, and then sees `hungry` (set before the lock was taken) and sends it;
 *   - the consumer takes pending elements only while the channel is empty under the feeder's
 *     lock, when every batch that feeder sent earlier has been read: a feeder's elements arrive
 *     in its order.
 * The lock is held for a few field writes, so spinning is enough (and, unlike a JDK lock, never parks a fiber outside weft's waits, which the test kit's
 * virtual time could not see). `FlowBatchingStressSuite` checks order and completeness under
 * many feeders and random speeds.
 */
private[weft] object Batching:

  /** Several elements in one hand-over (never fewer than two). */
  final class Batch(val items: Array[AnyRef])

  /** The shared state of one boundary: whether its consumer is waiting for elements. */
  final class Hunger:
    @volatile var hungry: Boolean = false

  /**
   * The elements per batch at a boundary of `capacity` elements fed by `feeders` fibers: small
   * enough that every feeder's pending batch, a few batches in the channel and the batch the
   * consumer is emitting fit in `capacity`; at most 256.
   */
  def batchSize(capacity: Int, feeders: Int): Int =
    math.max(1, math.min(256, capacity / (2 * (feeders + 1))))

  /**
   * The channel's capacity, in hand-overs, at a boundary of `capacity` elements fed by
   * `feeders` fibers: with each feeder's pending batch and the batch the consumer is emitting,
   * at most `capacity` elements have been produced and not yet taken downstream
   * (`FlowBackPressureSuite`). Without batching (a batch of 1), the channel holds `capacity`
   * elements, as a plain channel would.
   */
  def slots(capacity: Int, feeders: Int): Int =
    val max = batchSize(capacity, feeders)
    if max == 1 then math.max(0, capacity - feeders + 1)
    else math.max(0, capacity / max - feeders - 1)

  /** A feeder's side. Used by its feeding fiber only (the consumer only takes its elements). */
  final class Writer[T](ch: Channel[AnyRef], max: Int, hunger: Hunger) extends AtomicBoolean:
    private val items = new Array[AnyRef](max)
    private var size = 0

    def lock(): Unit =
      var spins = 0
      while !compareAndSet(false, true) do
        // the holder may have lost its carrier: after a short spin, let it run
        spins += 1
        if spins < 64 then Thread.onSpinWait() else Thread.`yield`()
    def unlock(): Unit = setRelease(false)

    /** Adds `t`; hands over the pending elements if the consumer waits or `max` are pending. */
    def add(t: T)(using Async): Unit =
      if max == 1 then ch.send(t.asInstanceOf[AnyRef])
      else
        var out: AnyRef | Null = null
        lock()
        try
          items(size) = t.asInstanceOf[AnyRef]
          size += 1
          val hungry = hunger.hungry
          if hungry || size == max then
            out = takeAll()
            // the consumer has something to wake for: what comes next gathers into a batch
            // until it finds the channel empty again and says so
            if hungry then hunger.hungry = false
        finally unlock()
        // outside the lock: this feeder adds nothing while it waits here, so the consumer can
        // never take a later element of it first. A `trySend` would not do for a hungry
        // consumer: it fails while the consumer waits in a select (a `groupedWithin` window),
        // and the element would stay behind (`FlowGroupedWithinSuite`).
        if out != null then ch.send(out.nn)

    /** Hands over what is pending, waiting if the channel is full: at the end of the feed. */
    def flush()(using Async): Unit =
      lock()
      val out =
        try takeAll()
        finally unlock()
      if out != null then ch.send(out.nn)

    /** The pending elements, taken: `null` if none. Called under the lock. */
    def takeAll(): AnyRef | Null =
      if size == 0 then null
      else
        val out = pack()
        clear()
        out

    private def pack(): AnyRef =
      if size == 1 then items(0) else Batch(java.util.Arrays.copyOf(items, size))

    private def clear(): Unit =
      java.util.Arrays.fill(items, 0, size, null)
      size = 0

  /** What [[Reader.poll]] returns when nothing is ready. */
  object Empty

  /** What [[Reader]] returns once the channel is closed and drained. */
  object Closed

  /**
   * The consumer's side of a boundary fed by `writers` through `ch`. Used by one fiber.
   */
  final class Reader[T](ch: Channel[AnyRef], writers: Seq[Writer[?]], hunger: Hunger):
    private var batch: Array[AnyRef] | Null = null
    private var index = 0

    /** The next element if one is ready now, else [[Empty]], or [[Closed]]. */
    def poll(): T | Empty.type | Closed.type =
      val b = batch
      if b != null then fromBatch(b)
      else
        ch.tryRead() match
          case Some(r) => unpack(r)
          case None    =>
            // let the feeders run first: they fill batches, where saying "hungry" now would
            // have them hand over each element alone
            Thread.`yield`()
            ch.tryRead() match
              case Some(r) => unpack(r)
              case None    => stealOrNothing()

    /** The next element, waiting for one, or [[Closed]]; a failed channel throws its cause. */
    def next()(using Async): T | Closed.type =
      poll() match
        case Empty => unpack(ch.read())
        case other => other.asInstanceOf[T | Closed.type]

    /** The source to select on after [[poll]] found [[Empty]]; its value goes to [[accept]]. */
    def readable: Source[Try[AnyRef]] = ch.canRead

    /** The element a select read from [[readable]], or [[Closed]]. */
    def accept(r: Try[AnyRef]): T | Closed.type = unpack(r).asInstanceOf[T | Closed.type]

    private def fromBatch(b: Array[AnyRef]): T =
      val t = b(index).asInstanceOf[T]
      index += 1
      if index == b.length then
        batch = null
        index = 0
      t

    private def unpack(r: Try[AnyRef]): T | Closed.type =
      hunger.hungry = false
      r match
        case Success(b: Batch) =>
          batch = b.items
          index = 0
          fromBatch(b.items)
        case Success(v)                         => v.asInstanceOf[T]
        case Failure(e: ChannelFailedException) => throw e.getCause
        case Failure(_)                         => Closed

    private def stealOrNothing(): T | Empty.type | Closed.type =
      hunger.hungry = true
      val it = writers.iterator
      while it.hasNext do
        val w = it.next()
        w.lock()
        val found: AnyRef | Null =
          try
            ch.tryRead() match
              case Some(r) => r
              case None =>
                val pending = w.takeAll()
                if pending == null then null else Success(pending)
          finally w.unlock()
        if found != null then return unpack(found.asInstanceOf[Try[AnyRef]])
      Empty
