package weft
package internal.keyed

import weft.keyed.*

import java.util.concurrent.atomic.AtomicReferenceArray
import java.util.concurrent.locks.ReentrantLock
import scala.collection.mutable.ArrayBuffer
import weft.runtime.Fiber

/**
 * The map from keys to their entries in a [[Sequentially]]: a key with tasks in flight maps to
 * its ''entry'', the task that found it idle (see "The key's entry" in [[KeyedTask]]; the key's
 * [[Lane]], if any, hangs off it). A lock-free hash table made for its traffic, where each entry
 * is installed once, looked up, and removed once. It replaces a
 * `ConcurrentHashMap`, where the executor spent over half its time: a bin lock on every removal,
 * a shared size counter updated by every insertion and removal, and a node per entry.
 *
 * ==Bins==
 * The table is a power-of-two array of bins (64 at first). A bin holds `null`, one entry (the task
 * itself: there is no node), or a [[KeyTable.Chain]]: an immutable array of two or more entries of
 * the same bin. Every change is one CAS of one bin, from the value read to a new value:
 * `null -> entry` to install, `entry -> null` to remove, or a copy of a chain with one entry more
 * or less. No lock and no shared counter is touched on these paths; [[size]] counts by traversal.
 *
 * ==Growth==
 * An insertion that makes a chain of `growAt` entries (4 by default), whose hashes differ in the
 * bit a doubled table would split them on, doubles the table (a chain of equal hashes would not be
 * split, so it does not grow the table), if the table is crowded there: at least 3/8 of the (up to)
 * 256 bins of the chain's aligned block hold something, which is what a load of about half an entry
 * per bin gives with well-spread hashes; or if the chain is long ([[LongChain]] entries), which at
 * such a load is practically never chance but hashes that share their low bits (keys that are all
 * multiples of 32, say), which only a larger table separates. Without the check a long-lived table
 * grew for ever under churn: every insertion is a new draw, and some bin eventually collects four
 * entries at any load. Under the churn of the sequentially-batch-1000 benchmark it reached a size
 * at which every lookup, install and removal missed the cache (figures in docs/perf/keyed.md);
 * `KeyTableSuite` ("churn of distinct keys does not grow the table beyond its load", "keys whose
 * hashes share their low bits still grow the table") re-checks both rules.
 *
 * One thread grows at a time; the others go on, a long chain only makes them slower. The grower moves the bins one by one: it CASes bin `i` from
 * its value `v` to `Frozen(v)`, copies `v`'s entries into bins `i` and `i + n` of the new table,
 * then sets bin `i` to `Moved(new table)`. A frozen bin is still read (lookups search `v`); a
 * writer waits for it to become `Moved` (a few copies) and retries in the new table. New bins `i`
 * and `i + n` are reachable only through old bin `i` once it is `Moved`, so the grower fills them
 * with plain writes before it publishes `Moved`. Finally `table` points to the new table.
 *
 * The table never shrinks (like `ConcurrentHashMap`): its capacity follows the peak number of
 * keys active at once; the entries themselves leave it soon after they die.
 *
 * ==Dead entries==
 * A dead entry (its key went idle) may stay in its bin for a while (its removal is deferred, see
 * [[DeadEntries]]). It is dead to every operation: [[get]] and [[size]] skip it, and
 * [[putIfAbsent]] replaces it by the new entry of its key in the same CAS. Only [[retained]]
 * still counts it.
 */
private[weft] final class KeyTable[K](initialCapacity: Int = 64, growAt: Int = 4):
  import KeyTable.*

  require(Integer.bitCount(initialCapacity) == 1, "initialCapacity must be a power of two")
  require(growAt >= 2, "growAt must be >= 2")

  @volatile private var table = AtomicReferenceArray[AnyRef](initialCapacity)
  private val growLock = ReentrantLock()

  /** The live entry of `key`, or `null` if it has none. */
  def get(key: K): Entry | Null = get(key, spread(key.##))

  /** The live entry of `key`, whose spread hash is `h`, or `null` if it has none. */
  def get(key: K, h: Int): Entry | Null =
    var t = table
    var result: Entry | Null = null
    var searching = true
    while searching do
      t.get(h & (t.length - 1)) match
        case m: Moved  => t = m.next
        case f: Frozen => result = find(f.content, h, key); searching = false
        case v         => result = find(v, h, key); searching = false
    if result != null && result.nn.isDead then null else result

  /**
   * Installs `entry` for its key unless the key has a live entry already, which it returns. A
   * dead entry of the key is replaced.
   */
  def putIfAbsent(entry: Entry): Entry | Null =
    val h = entry.hash
    var found: Entry | Null = null
    var written: AnyRef | Null = null
    val t = updateBin(h): v =>
      found = find(v, h, entry.key)
      written =
        if found == null then withEntry(v, entry)
        else if found.nn.isDead then
          val dead = found.nn
          found = null
          withEntry(without(v, dead), entry)
        else v
      written
    if found == null then
      written match
        case c: Chain
            if c.entries.length >= growAt && c.splitsAt(t.length) &&
              (c.entries.length >= LongChain || crowded(t, h)) =>
          grow(t)
        case _ =>
    found

  /** Whether at least 3/8 of the (up to) [[SampleBins]] bins of `h`'s aligned block are used. */
  private def crowded(t: AtomicReferenceArray[AnyRef], h: Int): Boolean =
    val n = math.min(SampleBins, t.length)
    val start = h & (t.length - 1) & ~(n - 1)
    var used = 0
    var i = 0
    while i < n do
      if t.get(start + i) != null then used += 1
      i += 1
    used * 8 >= n * 3

  /** Removes `entry` (compared by identity); returns whether it was there. */
  def remove(entry: Entry): Boolean =
    var removed = false
    updateBin(entry.hash): v =>
      val rest = without(v, entry)
      removed = rest ne v
      rest
    removed

  /**
   * Calls `f` on every live entry present from the start to the end of the call (and perhaps on
   * entries installed meanwhile), like `ConcurrentHashMap`'s weakly consistent iteration. The
   * entries are collected first, so `f` may use the table.
   */
  def foreach(f: Entry => Unit): Unit =
    val all = ArrayBuffer[Entry]()
    traverse(e => if !e.isDead then all += e)
    all.foreach(f)

  /** The number of live entries, counted by traversal (cost proportional to the capacity). */
  def size: Int =
    var n = 0
    traverse(e => if !e.isDead then n += 1)
    n

  /** The number of entries held, dead ones not yet removed included: for tests. */
  def retained: Int =
    var n = 0
    traverse(_ => n += 1)
    n

  /** The number of bins: for tests. */
  def capacity: Int = table.length

  /** Visits every entry of the current table, with growth held off (no bin frozen or moved). */
  private def traverse(visit: Entry => Unit): Unit =
    growLock.lock()
    try
      val t = table
      var i = 0
      while i < t.length do
        t.get(i) match
          case e: Entry => visit(e)
          case c: Chain => c.entries.foreach(visit)
          case _        =>
        i += 1
    finally growLock.unlock()

  /**
   * The writers' walk: replaces the bin of hash `h` by `change(bin)` with one CAS in the table
   * that holds it now (following `Moved` bins and waiting out `Frozen` ones, see "Growth"),
   * calling `change` again if the CAS loses a race. A `change` that returns the bin itself leaves
   * it as it is. Returns the table of the last bin looked at.
   */
  private inline def updateBin(h: Int)(
      inline change: AnyRef | Null => AnyRef | Null
  ): AtomicReferenceArray[AnyRef] =
    var t = table
    var spins = 0
    var done = false
    while !done do
      val i = h & (t.length - 1)
      t.get(i) match
        case m: Moved => t = m.next
        case _: Frozen =>
          Fiber.spinPause(spins)
          spins += 1
        case v =>
          val next = change(v)
          done = (next eq v) || t.compareAndSet(i, v, next)
    t

  /** The bin `v` with `entry` added. */
  private def withEntry(v: AnyRef | Null, entry: Entry): AnyRef =
    v match
      case null     => entry
      case c: Chain => Chain(c.entries :+ entry)
      case e: Entry => Chain(Array[Entry](e, entry))
      case other    => throw IllegalStateException(s"KeyTable: bad bin $other")

  /** The bin `v` without `entry` (by identity); `v` itself if `entry` is not in it. */
  private def without(v: AnyRef | Null, entry: Entry): AnyRef | Null =
    v match
      case e: Entry if e eq entry => null
      case c: Chain =>
        val at = c.entries.indexWhere(_ eq entry)
        if at < 0 then c
        else if c.entries.length == 2 then c.entries(1 - at)
        else Chain(c.entries.patch(at, Nil, 1))
      case _ => v

  private def find(bin: AnyRef | Null, h: Int, key: Any): Entry | Null =
    bin match
      case e: Entry => if e.hash == h && e.key == key then e else null
      case c: Chain =>
        val entries = c.entries
        var i = 0
        while i < entries.length do
          val e = entries(i)
          if e.hash == h && e.key == key then return e
          i += 1
        null
      case _ => null

  /** Doubles `t` (see "Growth") unless another thread is growing or has grown it already. */
  private def grow(t: AtomicReferenceArray[AnyRef]): Unit =
    if t.length < MaxCapacity && growLock.tryLock() then
      try
        if table eq t then
          val n = t.length
          val next = AtomicReferenceArray[AnyRef](n * 2)
          val moved = Moved(next)
          var i = 0
          while i < n do
            val v = t.get(i)
            if v == null then
              if t.compareAndSet(i, null, moved) then i += 1
            else if t.compareAndSet(i, v, Frozen(v)) then
              split(v, n, i, next)
              t.set(i, moved)
              i += 1
          table = next
      finally growLock.unlock()

  /** Writes the entries of old bin `i` into bins `i` and `i + n` of `next`. */
  private def split(v: AnyRef, n: Int, i: Int, next: AtomicReferenceArray[AnyRef]): Unit =
    v match
      case e: Entry => next.set(e.hash & (2 * n - 1), e)
      case c: Chain =>
        val (high, low) = c.entries.partition(e => (e.hash & n) != 0)
        next.set(i, bin(low))
        next.set(i + n, bin(high))
      case _ =>

  private def bin(entries: Array[Entry]): AnyRef | Null =
    entries.length match
      case 0 => null
      case 1 => entries(0)
      case _ => Chain(entries)

private[weft] object KeyTable:

  /** An entry of the table: the task that holds its key (see [[KeyedTask]]). */
  type Entry = KeyedTask[?]

  /** The largest table. */
  inline val MaxCapacity = 1 << 30

  /** How many bins around a long chain are looked at before growing (see "Growth"). */
  inline val SampleBins = 256

  /** A chain this long grows the table however sparse the bins around it (see "Growth"). */
  inline val LongChain = 8

  /** Mixes the high bits of a hash code into the low ones, which choose the bin. */
  def spread(h: Int): Int = h ^ (h >>> 16)

  /** Two or more entries of one bin; never modified (a change replaces the chain). */
  final class Chain(val entries: Array[Entry]):
    /** Whether some two entries go to different bins in a table of `2 * n` bins. */
    def splitsAt(n: Int): Boolean =
      val bit = entries(0).hash & n
      entries.exists(e => (e.hash & n) != bit)

  /** A bin being moved to the next table: still readable, not writable. */
  final class Frozen(val content: AnyRef)

  /** A bin moved to the `next` table. */
  final class Moved(val next: AtomicReferenceArray[AnyRef])
