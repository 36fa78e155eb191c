package weft

import java.util.concurrent.CancellationException
import scala.annotation.implicitNotFound
import scala.compiletime.uninitialized
import scala.util.Try
import weft.runtime.{AsyncSupport, Fiber}
import weft.internal.async.{AsyncContext, BodyRunner, CallerRunner, Parking}
import weft.internal.runtime.PlatformSpin
import weft.internal.select.{RaceSource, SelectWait, Selector}

/**
 * The capability to suspend: code that awaits takes a `(using Async)`.
 *
 * An `Async` knows how to await a [[Source]], which [[CompletionGroup]] the futures started
 * under it join, and the [[runtime.AsyncSupport]] that starts them. Obtain one with
 * [[Async.blocking]]; a `Future { ... }` body and an [[Async.group]] body receive their own.
 */
@implicitNotFound(
  "This needs an Async context (it awaits or starts futures). Wrap the call in " +
    "`Async.blocking { ... }`, call it from inside a `Future { ... }`, or add `(using Async)` " +
    "to the enclosing method."
)
trait Async:

  /**
   * Suspends until `src` offers a value, and returns it.
   * @throws java.util.concurrent.CancellationException
   *   if this context's scope is (or gets) cancelled while waiting
   */
  final def await[T](src: Source[T]): T =
    val ready = src.readyValue
    if ready != null then ready.asInstanceOf[T] else suspend(src)

  /** The group that futures started under this context join. */
  def group: CompletionGroup

  /** This context with futures joining `group` instead. */
  def withGroup(group: CompletionGroup): Async

  /** The runtime support that starts fibers and schedules timers. */
  def support: AsyncSupport

  /** Whether the scope (or the future) this context belongs to has been cancelled. */
  private[weft] def cancellationPending: Boolean

  /** The runner whose body runs on the calling fiber (see `uninterruptible`), or `null`. */
  private[weft] def runnerOnCurrentFiber: BodyRunner | Null

  /**
   * Called by an await of this context that saw an interrupt: `true` if the interrupt is
   * deferred (a root scope's body inside `uninterruptible`, see [[CallerRunner]]), so the await
   * keeps waiting. A runnable future's cancellation does not interrupt inside a block at all.
   */
  private[weft] def absorbsInterrupt: Boolean = false

  // The contexts are weft's own: a scope's (`AsyncContext`) and a runnable future's body, which is
  // its own context so that a spawn allocates no separate one. The members above are
  // `private[weft]`, so no other implementation can be written.

  /**
   * The slow path of [[await]]: register a waiter and park until completed. Kept small: its
   * frame is what a pending future keeps on its virtual thread's stack.
   */
  private def suspend[T](src: Source[T]): T =
    if cancellationPending then throw CancellationException("the awaiting scope was cancelled")
    val w = AsyncContext.Waiter[T](Fiber.current, this)
    // A ready value is taken by polling, without registering (a race then never builds its
    // shared listener); `poll` may offer a value that a filter declines, so check `isDone`.
    if src.poll(w) && w.isDone then return w.value
    src.onComplete(w)
    if PlatformSpin.onPlatformThread then awaitOnPlatform(src, w) else parkUntilDone(src, w)
    w.value

  /** Parks until `w` is completed; an interrupt gives up the await unless absorbed. */
  private inline def parkUntilDone[T](src: Source[T], w: AsyncContext.Waiter[T]): Unit =
    while !w.isDone do if Parking.parkOnce(w)(using this) then interrupted(src, w)

  /**
   * A platform thread's wait: a short spin first while few platform threads wait (see
   * [[weft.internal.runtime.PlatformSpin]]; `RootSpawnAwait` in bench measures it), then the park.
   */
  private def awaitOnPlatform[T](src: Source[T], w: AsyncContext.Waiter[T]): Unit =
    if !w.isDone then
      val spin = PlatformSpin.enter()
      try
        if spin then PlatformSpin.spinUntil(w.isDone)
        parkUntilDone(src, w)
      finally PlatformSpin.leave()

  /** An interrupt while parked: the cancellation of this scope, or a foreign interrupt. */
  private def interrupted[T](src: Source[T], w: AsyncContext.Waiter[T]): Unit =
    src.dropListener(w)
    if !w.giveUp() then
      if cancellationPending then throw CancellationException("the awaiting scope was cancelled")
      throw InterruptedException()
    Fiber.selfInterrupt()

/** Entry points and combinators of direct-style concurrency. */
object Async:

  /** Alias of [[weft.Source]], so that `Async.Source` names it too (as in gears). */
  type Source[+T] = weft.Source[T]

  /** Alias of [[weft.OriginalSource]], so that `Async.OriginalSource` names it too. */
  type OriginalSource[+T] = weft.OriginalSource[T]

  /**
   * Runs `body` with an `Async` context and returns its value (or throws its exception).
   *
   * `body` runs on the calling thread, platform or virtual, so the caller's thread-locals (a
   * logging context, say) are visible in it; an await inside parks that thread. Its futures and
   * timers use the calling fiber's support (`AsyncSupport.current`): the default one, or inside
   * a test kit's virtual time, the kit's. When `body` ends,
   * every future started in it that is still running is cancelled, and `blocking` returns only
   * after all of their threads have terminated.
   *
   * An interrupt of the calling thread makes the body's next await throw `InterruptedException`
   * (inside `uninterruptible`, when the block ends); the futures started in it are then
   * cancelled and joined as the exception leaves the scope.
   *
   * @throws InterruptedException
   *   if the calling thread is interrupted while the body awaits (the body's futures are then
   *   cancelled and joined)
   */
  def blocking[T](body: Async ?=> T): T =
    val root = CompletionGroup()
    try body(using AsyncContext(root, CallerRunner(root), AsyncSupport.current))
    finally
      root.cancel()
      root.waitCompletion()

  /**
   * Runs `body` in a nested scope: when it ends (normally, by exception or by cancellation),
   * the futures started in it are cancelled and their threads joined before this returns.
   * The scope is cancelled with the enclosing one.
   */
  def group[T](body: Async ?=> T)(using outer: Async): T =
    val g = CompletionGroup.scoped()
    g.link(outer.group)
    try body(using outer.withGroup(g))
    finally
      g.cancel()
      g.waitCompletion()
      g.unlink()

  /** Suspends until `src` offers a value and returns it; for a future, its `Try` result. */
  def await[T](src: Source[T])(using async: Async): T = async.await(src)

  /**
   * A source offering the first value of any of `sources` (each keeps its other values).
   * @throws IllegalArgumentException
   *   if `sources` is empty (such a race could never offer anything)
   */
  def race[T](sources: Source[T]*): Source[T] =
    require(sources.nonEmpty, "Async.race needs at least one source")
    RaceSource(sources.toIndexedSeq)

  /** A race of two sources that says which won. */
  def either[L, R](left: Source[L], right: Source[R]): Source[Either[L, R]] =
    race(left.map(Left(_)), right.map(Right(_)))

  /**
   * Awaits the first of `cases` to offer a value and runs that case's handler (outside any
   * lock, on the caller's thread). Exactly one case fires; the others keep their values.
   * @throws IllegalArgumentException
   *   if `cases` is empty (such a select could never fire)
   */
  def select[R](cases: SelectCase[?, R]*)(using async: Async): R =
    require(cases.nonEmpty, "Async.select needs at least one case")
    val sel = Selector(cases, async)
    SelectWait.await(sel)(using async)
    sel.fire[R]()

  /**
   * Not a select: a call with bare sources, `Async.select(f, timer)`, resolves here and fails to
   * compile with the fix, instead of a type mismatch on `SelectCase`. To race bare sources, use
   * [[race]].
   */
  inline def select(first: Source[?], more: Source[?]*): Nothing =
    scala.compiletime.error(
      "Async.select takes cases, not sources: pair each source with its handler, " +
        "`source ~~> (value => ...)`; to take the first value of bare sources, use Async.race"
    )
