package weft.keyed

import java.util.concurrent.{CancellationException, ConcurrentHashMap}
import scala.util.Try
import weft.Async
import weft.internal.async.Cancellation
import weft.internal.futures.RunnableFuture
import weft.internal.keyed.Flight
import weft.internal.scopes.SupervisorGroup

/**
 * Coalesces concurrent calls per key: callers that ask for the same key while its computation is
 * in flight share that one computation and all get its result (as Go's `singleflight`, or a
 * coalescing cache's miss). A read-through cache uses it on a miss so that 50 concurrent misses
 * of one key load it once, not 50 times, and not one after another:
 *
 * {{{
 * Async.blocking:
 *   val loads = SingleFlight[String, User]()
 *   def user(id: String)(using Async): User =
 *     cache.get(id).getOrElse:
 *       loads(id):
 *         val u = database.load(id)
 *         cache.set(id, u)
 *         u
 * }}}
 *
 * ==Guarantees==
 *   - One computation per key at a time: a call that finds the key's computation in flight
 *     waits for it instead of starting another; a call that finds none starts one.
 *   - A failure is shared: every caller waiting then gets the same exception. It is not kept:
 *     the next call computes again.
 *   - Nothing is cached: once a computation has ended, the next call of its key starts a new
 *     one. Keeping values is a cache's job; this only coalesces calls that overlap.
 *   - A caller that gives up (it is cancelled, interrupted, or its `withTimeout` fires) leaves
 *     alone: the computation goes on for the others. When the last caller waiting for it gives
 *     up, the computation is cancelled (its body is interrupted, see `Future.cancel`).
 *   - Idle keys leave no state: a key's entry is removed when its computation ends or is
 *     abandoned ([[inFlight]] counts the keys with a computation in flight).
 *
 * ==Where the computation runs==
 * On a virtual thread of its own, as a member of the scope that created the `SingleFlight` (its
 * owner), not of the caller that started it: so a caller that leaves does not take it along, and
 * nothing outlives the owner. When the owner's scope ends, the computations still in flight are
 * cancelled and joined with it; their waiters get a `CancellationException`. Later calls then
 * throw a `CancellationException` too. In a [[weft.supervised]] owner, a failing computation
 * does not fail the owner's scope: the failure goes to the callers. A computation cancelled
 * because every caller left is not joined by the last caller: the owner's scope joins it.
 *
 * The computation receives its own `Async` context (futures it starts are joined when it ends);
 * a caller's `withTimeout` bounds that caller's wait, not the computation. Its [[weft.ForkLocal]]
 * values are those of the caller that started it. It must not call the same `SingleFlight` for
 * its own key: it would wait for itself.
 *
 * @tparam K
 *   the key type; keys are compared with `equals`/`hashCode`
 * @tparam V
 *   the type of the computed values
 */
final class SingleFlight[K, V] private (owner: Async):
  private val flights = ConcurrentHashMap[K, Flight[V]]()

  // Computations join the owner's scope unsupervised: a failure belongs to the callers.
  private val home: Async = owner.group match
    case s: SupervisorGroup => owner.withGroup(s.unsupervised)
    case _                  => owner

  /**
   * Returns the value of `key`'s computation in flight, waiting for it, or starts `compute` as
   * the key's computation and waits for it; throws the computation's exception if it fails.
   *
   * If the caller is cancelled or interrupted while it waits, it throws (a
   * `CancellationException` or an `InterruptedException`) and the computation goes on for the
   * other callers; the last caller to leave cancels it.
   *
   * @throws IllegalArgumentException
   *   if `key` is `null`
   * @throws java.util.concurrent.CancellationException
   *   if the caller is cancelled, if the owner's scope has ended, or if the computation was
   *   cancelled with it
   */
  def apply(key: K)(compute: Async ?=> V)(using async: Async): V =
    if key == null then throw IllegalArgumentException("SingleFlight: the key must not be null")
    Cancellation.check("SingleFlight")
    val flight = join(key, compute)
    val result: Try[V] =
      try async.await(flight.job)
      catch
        case e: Throwable =>
          if flight.leave() then abandon(key, flight)
          throw e
    // A job cancelled before its body ran (its owner's scope ended) never removed its entry.
    if result.isFailure then flights.remove(key, flight)
    result.get

  /** The number of keys with a computation in flight; 0 when none is (no state is kept). */
  def inFlight: Int = flights.size

  /** How many callers wait for `key`'s computation (0 if none is in flight): for tests. */
  private[weft] def waiting(key: K): Int =
    val f = flights.get(key)
    if f == null then 0 else f.get()

  /** The key's flight, joined, or a new one, started. */
  private def join(key: K, compute: Async ?=> V): Flight[V] =
    var joined: Flight[V] | Null = null
    while joined == null do
      val current = flights.get(key)
      if current == null then
        if home.group.isCancelled then
          throw CancellationException("SingleFlight: the scope that owns it has ended")
        val flight = Flight[V]()
        flight.job = RunnableFuture(computeAndRetire(key, flight, compute), home)
        if flights.putIfAbsent(key, flight) == null then
          try
            flight.job.link(home.group)
            home.support.start(flight.job)
          catch
            case e: Throwable => // no fiber: wake whoever joined meanwhile, leave no entry
              flights.remove(key, flight)
              flight.job.cancel()
              throw e
          joined = flight
      else if current.tryJoin() then joined = current
      else flights.remove(key, current) // abandoned: help its last waiter remove it
    joined.nn

  /** The job's body: `compute`, then the key's entry leaves, before the job completes. */
  private def computeAndRetire(key: K, flight: Flight[V], compute: Async ?=> V)(using Async): V =
    try compute
    finally flights.remove(key, flight): Unit

  /** The last waiter left: the entry goes, and the computation is cancelled. */
  private def abandon(key: K, flight: Flight[V]): Unit =
    flights.remove(key, flight)
    flight.job.cancel()

/** Creating a [[SingleFlight]]. */
object SingleFlight:

  /**
   * A new `SingleFlight` owned by the current scope: its computations run in that scope and
   * are cancelled and joined when it ends (see the class comment).
   */
  def apply[K, V]()(using async: Async): SingleFlight[K, V] = new SingleFlight[K, V](async)
