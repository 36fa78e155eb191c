package weft
package internal.select

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicReference
import scala.compiletime.uninitialized

/**
 * A source offering the first value of any of `sources`; the others keep their values.
 *
 * ==Algorithm==
 * `onComplete(k)` wraps `k` in one [[RaceSource.RaceListener]] registered on every source. The
 * wrapper's lock is `k`'s lock when `k` has one (so a race nested in a race, or raced against a
 * channel, shares one lock and one winner), else a fresh [[NumberedLock]]. The first source to
 * acquire the lock completes `k`; every later source fails to acquire it and keeps its value.
 * The winner then drops the wrapper from all sources. Registration may still be running on
 * another thread when a source wins, so registration re-checks after each source and drops the
 * wrapper itself if the race is already decided: no listener stays registered after a race.
 */
final private[weft] class RaceSource[T](sources: IndexedSeq[Source[T]]) extends Source[T]:
  import RaceSource.*
  require(sources.nonEmpty, "a race needs at least one source")

  // Wrappers of the listeners registered through `onComplete`, to find them again on drop. A
  // race is nearly always awaited by one listener: it takes `first`; others go to a map made
  // on demand.
  private val first = AtomicReference[RaceListener[T] | Null](null)
  private val others = AtomicReference[ConcurrentHashMap[Listener[T], RaceListener[T]] | Null](null)

  private def register(rl: RaceListener[T]): Unit =
    if !first.compareAndSet(null, rl) then othersMap().put(rl.outer, rl)

  // Made by CAS, not under `synchronized` (which pins a virtual thread on JDK 21).
  private def othersMap(): ConcurrentHashMap[Listener[T], RaceListener[T]] =
    val m = others.get()
    if m != null then m
    else
      others.compareAndSet(null, ConcurrentHashMap())
      others.get().nn

  /** Removes and returns the wrapper of `k` (or of `k` only if it is `rl`, when given). */
  private def unregister(k: Listener[T], rl: RaceListener[T] | Null): RaceListener[T] | Null =
    val f = first.get()
    if f != null && f.outer == k && (rl == null || (f eq rl)) && first.compareAndSet(f, null) then f
    else
      val m = others.get()
      if m == null then null
      else if rl == null then m.remove(k)
      else if m.remove(k, rl) then rl
      else null

  def poll(k: Listener[T]): Boolean =
    var i = 0
    while i < sources.length do
      if sources(i).poll(k) then return true
      i += 1
    false

  def onComplete(k: Listener[T]): Unit =
    val rl = RaceListener(k, this)
    register(rl)
    var i = 0
    while i < sources.length && !rl.isDone do
      val s = sources(i)
      s.onComplete(rl)
      if rl.isDone then s.dropListener(rl)
      i += 1
    if rl.isDone then unregister(k, rl)

  def dropListener(k: Listener[T]): Unit =
    val rl = unregister(k, null)
    if rl != null then
      rl.kill()
      rl.dropFromAll()

  private[weft] def sourceCount: Int = sources.length
  private[weft] def sourceAt(i: Int): Source[T] = sources(i)
  private[weft] def forget(k: Listener[T], rl: RaceListener[T]): Unit = unregister(k, rl)

/** Implementation of [[RaceSource]]. */
private[weft] object RaceSource:

  /** The listener a race registers on each of its sources, forwarding the first value to `k`. */
  final class RaceListener[T](k: Listener[T], race: RaceSource[T]) extends Listener[T]:
    /** The listener this wrapper forwards to. */
    def outer: Listener[T] = k

    @volatile private var done: Boolean = uninitialized
    private val own: NumberedLock | Null = if k.lock == null then NumberedLock() else null

    val lock: ListenerLock | Null =
      val outer = k.lock
      if outer == null then own
      else
        new ListenerLock:
          def number: Long = outer.number
          def acquire(): Boolean =
            if done then false
            else if !outer.acquire() then
              outerGone()
              false
            else if done then
              outer.release()
              false
            else true
          def release(): Unit = outer.release()

    /** Whether a source has completed this race. */
    def isDone: Boolean = done

    override def accepts(data: T): Boolean = k.accepts(data)

    def complete(data: T, source: Source[T]): Unit =
      done = true
      k.complete(data, race)
      // Retire the own lock only after `k` is completed, so that `kill` (which must acquire it)
      // knows whether `k` got a value. Drop from the sources only after releasing every lock:
      // a source's `dropListener` may acquire this listener's lock (channels do).
      val o = own
      if o != null then o.retire()
      race.forget(k, this)
      dropFromAll()

    /**
     * Makes the race uncompletable when its listener is dropped (an await gave up): after this
     * returns, either `k` has been completed already or no source can complete it any more.
     * Without it a source could complete a lock-free `k` after its awaiter left, losing a value.
     */
    def kill(): Unit =
      val o = own
      if o != null && o.retireUnused() then done = true

    /**
     * The outer listener was completed elsewhere (its lock is retired): no source can ever
     * complete this race, so it leaves every source now instead of declining their offers until
     * each one completes (`RaceSuite`, "a race whose listener is gone leaves its sources").
     * Dropping only touches this listener's own lock, which now fails at once, so it is safe
     * from inside a source's completion.
     */
    private def outerGone(): Unit =
      if !done then
        done = true
        race.forget(k, this)
        dropFromAll()

    /** Removes this listener from every source of the race. */
    def dropFromAll(): Unit =
      var i = 0
      while i < race.sourceCount do
        race.sourceAt(i).dropListener(this)
        i += 1
