package weft
package internal.keyed

import java.util.concurrent.atomic.AtomicInteger
import scala.compiletime.uninitialized
import weft.internal.futures.RunnableFuture

/**
 * One computation of a [[weft.keyed.SingleFlight]] in flight, and how many callers wait for it.
 *
 * ==How it works==
 * A key with a computation in flight maps to its `Flight` in a `ConcurrentHashMap`; a key
 * without one has no entry. The flight counts its waiters (the flight IS the count, to save an
 * allocation) and holds the computation's future, `job`, a runnable future of the owner's scope
 * (not of any caller's: a caller that leaves does not take the computation with it).
 *   - The first caller makes the flight with a count of 1 and the job not yet started, and
 *     publishes it with `putIfAbsent`; only the caller whose `putIfAbsent` wins starts the job.
 *     `job` is set before the flight is published, so every caller that finds it sees it.
 *   - A later caller joins with a CAS that raises the count, but only from a count above 0
 *     ([[tryJoin]]). Count 0 means abandoned: the last waiter left and has cancelled, or is
 *     cancelling, the job. A caller that finds an abandoned flight removes it from the map (the
 *     last waiter does too; whoever is first) and tries again: it never shares a dead job.
 *   - A caller that gives up (cancelled, interrupted, timed out) lowers the count
 *     ([[leave]]); the one that brings it to 0 removes the entry and cancels the job. A caller
 *     that got its result does not lower the count: the job is done, nothing is left to cancel.
 *   - The job's body removes the entry as it ends, before its future completes: a caller that
 *     comes later starts a new computation, so a result, or a failure, is never reused by a call
 *     that began after it was computed. Those that joined before it are all served by it.
 * Removal is `remove(key, flight)`: it removes this flight only, never a newer one of the key.
 */
private[weft] final class Flight[V] extends AtomicInteger(1):

  /** The computation; set once, before the flight is published in the map. */
  var job: RunnableFuture[V] = uninitialized

  /** Joins the flight unless it was abandoned (its count fell to 0): whether it joined. */
  def tryJoin(): Boolean =
    var n = get()
    while n > 0 do
      if compareAndSet(n, n + 1) then return true
      n = get()
    false

  /** A waiter gives up: whether it was the last one (the caller then abandons the flight). */
  def leave(): Boolean = decrementAndGet() == 0
