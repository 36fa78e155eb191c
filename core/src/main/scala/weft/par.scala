package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue}
import java.util.concurrent.atomic.AtomicInteger
import scala.collection.IterableOps
import scala.util.{Failure, Success, Try}
import weft.internal.async.Cancellation
import weft.internal.futures.RunnableFuture

/**
 * Runs `tasks` in parallel, each on its own fiber, and returns their values in the order of
 * `tasks`. The same as [[parLimit]] with a parallelism of `tasks.size`.
 *
 * {{{
 * val Seq(user, orders) = par(fetchUser(id), fetchOrders(id))
 * }}}
 */
def par[T](tasks: (Async ?=> T)*)(using Async): Seq[T] =
  parLimit(math.max(1, tasks.size))(tasks*)

/**
 * Runs `tasks` with at most `parallelism` of them running at once, and returns their values in
 * the order of `tasks`.
 *
 * Fails fast: the first task to fail cancels the others, which are waited for, and its exception
 * is thrown, with the failures of other tasks that failed meanwhile added to it as suppressed
 * (not their cancellation, nor an interrupt or an exception caused by one). If the caller's
 * scope is cancelled, every task is cancelled and waited for, and a `CancellationException` is
 * thrown, with the tasks' own failures added to it alike. In every case, when this returns or
 * throws, no task and no future a task started is still running.
 *
 * {{{
 * val pages = parLimit(2)(fetch(1), fetch(2), fetch(3)) // at most two fetches at a time
 * }}}
 * @throws IllegalArgumentException
 *   if `parallelism` is less than 1
 */
def parLimit[T](parallelism: Int)(tasks: (Async ?=> T)*)(using Async): Seq[T] =
  val in = tasks.toIndexedSeq
  val out = new Array[Any](in.length)
  Par.run(parallelism, in.length, "parLimit")((i, a) => out(i) = in(i)(using a))
  Par.seqOf[T](out)

extension [A, CC[_]](xs: IterableOps[A, CC, ?])

  /**
   * `xs.map(f)`, with `f` applied to at most `parallelism` elements at once, each on a fiber;
   * the results keep the order of `xs` (and its collection type).
   *
   * Fails fast as [[parLimit]]: the first failure of `f` cancels the other calls, waits for
   * them to end, and is thrown (later failures added as suppressed); cancelling the caller
   * cancels them all. Futures that `f` starts and does not await are cancelled and joined at the
   * latest when the call returns (earlier if the fiber that ran `f` runs out of elements first):
   * await what you start.
   *
   * {{{
   * val sizes: List[Long] = files.mapPar(8)(f => fileSize(f))
   * }}}
   * @throws IllegalArgumentException
   *   if `parallelism` is less than 1
   */
  def mapPar[B](parallelism: Int)(f: A => Async ?=> B)(using Async): CC[B] =
    val in = xs.toIndexedSeq
    val out = new Array[Any](in.length)
    Par.run(parallelism, in.length, "mapPar")((i, a) => out(i) = f(in(i))(using a))
    xs.iterableFactory.from(Par.seqOf[B](out))

  /**
   * Runs `f` on every element, at most `parallelism` at once, and returns when all are done.
   * Failures and cancellation as in [[mapPar]].
   *
   * {{{
   * users.foreachPar(4)(u => sendMail(u))
   * }}}
   * @throws IllegalArgumentException
   *   if `parallelism` is less than 1
   */
  def foreachPar(parallelism: Int)(f: A => Async ?=> Unit)(using Async): Unit =
    val in = xs.toIndexedSeq
    Par.run(parallelism, in.length, "foreachPar")((i, a) => f(in(i))(using a))

  /**
   * `xs.collect(pf)`, with `pf` applied to at most `parallelism` elements at once: the values
   * of the elements `pf` is defined at, in the order of `xs`. Failures and cancellation as in
   * [[mapPar]]; `pf` (and the test of whether it is defined) runs on the task's fiber.
   *
   * {{{
   * val found = ids.collectPar(8) { case id if id > 0 => lookup(id) }
   * }}}
   * @throws IllegalArgumentException
   *   if `parallelism` is less than 1
   */
  def collectPar[B](parallelism: Int)(pf: Async ?=> PartialFunction[A, B])(using Async): CC[B] =
    val in = xs.toIndexedSeq
    val out = new Array[Any](in.length)
    Par.run(parallelism, in.length, "collectPar"): (i, a) =>
      out(i) = pf(using a).applyOrElse(in(i), Par.skip)
    xs.iterableFactory.from(
      out.iterator.filter(_.asInstanceOf[AnyRef] ne Par.Skip).asInstanceOf[Iterator[B]]
    )

/** The engine of [[parLimit]], [[mapPar]], [[foreachPar]] and [[collectPar]]. */
private[weft] object Par:

  /** The marker of an element `collectPar`'s function is not defined at. */
  object Skip

  /** The default of `applyOrElse` in `collectPar`. */
  val skip: Any => Any = _ => Skip

  /** `out` seen as a `Seq[T]`, without copying (`out` is not written any more). */
  def seqOf[T](out: Array[Any]): Seq[T] =
    scala.collection.immutable.ArraySeq.unsafeWrapArray(out).asInstanceOf[Seq[T]]

  /**
   * Runs `task(i)` for `i` in `0 until count`, at most `parallelism` at once; returns when all
   * have succeeded, or throws (see [[parLimit]]).
   *
   * ==Algorithm==
   * `min(parallelism, count)` worker futures in a nested scope take indices from one shared
   * counter (a fetch-and-add each) and run the task of each: a fiber per worker rather than per
   * task, so a thousand small tasks cost eight spawns, not a thousand (benchmark `par-map-1000`).
   * A worker that catches a failure records it, stops every worker from taking another index and
   * completes `done` with it; the caller, awaiting `done`, throws it, and the end of the nested
   * scope cancels the other workers and joins them; only then are the failures they recorded
   * meanwhile added as suppressed, so the list is complete (they are added alike to the
   * caller's own cancellation or interrupt). `done` succeeds when every worker's future has
   * completed (counted by a listener, so a worker cancelled before it ever ran still counts). Results are read after the scope's join, which orders them after the workers'
   * writes; that every index was run is checked then, as a worker cancelled before it took one
   * would otherwise leave a hole. `ParSuite` re-checks order, the bound and fail-fast.
   */
  def run(parallelism: Int, count: Int, what: String)(task: (Int, Async) => Unit)(using
      Async
  ): Unit =
    require(parallelism >= 1, s"$what: parallelism must be >= 1, got $parallelism")
    Cancellation.check(what)
    if count > 0 then
      val state = State(count, math.min(parallelism, count))
      try
        Async.group:
          var w = 0
          while w < state.workers do
            Future(state.work(task)).onComplete(state.workerEnded)
            w += 1
          state.done.future.await
      catch
        case e: Throwable =>
          // The deciding failure, or the caller's cancellation or interrupt: either way the
          // tasks' own failures recorded up to the join go with it (`LateFailureCombinatorsSuite`).
          state.suppressOthers(e)
          throw e
      if state.next.get < count || !state.failures.isEmpty then
        throw CancellationException(s"$what: tasks were cancelled before they ran")

  /** The shared state of one run. */
  private final class State(val count: Int, val workers: Int):
    val next = AtomicInteger()
    val done = Promise[Unit]()
    val failures = ConcurrentLinkedQueue[Throwable]()
    private val running = AtomicInteger(workers)
    @volatile private var stopped = false

    val workerEnded: Listener[Try[Unit]] = Listener: (_, _) =>
      if running.decrementAndGet() == 0 then done.tryComplete(Success(())): Unit

    def work(task: (Int, Async) => Unit)(using a: Async): Unit =
      try
        var i = next.getAndIncrement()
        while i < count do
          if stopped then return
          Cancellation.check("a parallel task")
          task(i, a)
          i = next.getAndIncrement()
      catch
        case e: Throwable =>
          stopped = true
          failures.add(e)
          done.tryComplete(Failure(e)): Unit

    /**
     * Adds to `thrown` the failures recorded besides it that are the tasks' own: not their
     * cancellation, nor an interrupt or an exception caused by one (the shared test of
     * [[RunnableFuture.provokedByCancel]]).
     */
    def suppressOthers(thrown: Throwable): Unit =
      failures.forEach: f =>
        if (f ne thrown) && !RunnableFuture.provokedByCancel(f) then thrown.addSuppressed(f)
