package weft

import java.util.concurrent.CancellationException
import weft.internal.async.Cancellation

/**
 * A value that must be released after use: a file, a connection, a permit.
 *
 * {{{
 * val conn = Resource(TcpConnection.connect(host, port).await, _.close())
 * val file = Resource.fromAutoCloseable(File(path).open(StandardOpenOption.READ))
 * Async.blocking:
 *   Resource.both(conn, file).use: (c, f) =>
 *     ... // both released when this block ends, the file first
 * }}}
 *
 * A resource is a description; nothing is acquired until [[use]]. `use(f)` acquires the value,
 * runs `f` on it, and releases it, exactly once, however `f` ends: normally, by exception, or by
 * cancellation of the scope. Composite resources (`flatMap`, [[Resource.both]], [[Resource.all]])
 * acquire left to right and release in reverse order; each release runs even if an inner one
 * failed.
 *
 * Errors: the body's exception always wins. A release failing after a failed body is attached to
 * the body's exception with `addSuppressed`; a release failing after a successful body is thrown.
 * If an acquisition fails, the parts already acquired are released and the acquisition's
 * exception is thrown.
 *
 * ==Cancellation==
 * Acquisition and release run inside `uninterruptible`: cancellation neither interrupts them nor
 * loses an acquired value. If the scope is cancelled during acquisition, the value is released
 * at once and `use` throws `CancellationException` without running the body; if it is cancelled
 * while the body runs, the body is interrupted and the value released. A scope already cancelled
 * acquires nothing.
 */
sealed trait Resource[+T]:
  // The algorithm. Composition is continuation-passing: `a.flatMap(f).use(g) = a.use(x =>
  // f(x).use(g))`, so the release order is the nesting order of the `use` calls, reversed by
  // construction, and the error rules live in one place (`Resource.Primitive`).

  /** Acquires the value, runs `body` on it, releases it (see the rules above). */
  def use[R](body: T => R)(using Async): R

  /** The same resource, seen through `f` (which runs after acquisition, before the body). */
  def map[U](f: T => U): Resource[U] = Resource.Mapped(this, f)

  /** A resource acquired after this one, from its value; released before this one. */
  def flatMap[U](f: T => Resource[U]): Resource[U] = Resource.FlatMapped(this, f)

  /**
   * Acquires the value now and hands it over with its release, for a lifetime that no `use`
   * block can draw (a field of an object closed later, gears' `allocated`). The caller owns the
   * value: it must call [[Resource.Allocated.release]] once done (a second call does nothing).
   * Acquisition follows the rules of `use`: uninterruptible; a failing part releases what was
   * acquired before it; a scope cancelled meanwhile releases everything and throws.
   *
   * {{{
   * val conn = Resource.fromAutoCloseable(open()).allocated
   * try serve(conn.value) finally conn.release()
   * }}}
   */
  def allocated(using Async): Resource.Allocated[T]

/** Building resources. */
object Resource:

  /**
   * A resource acquired by `acquire` and released by `release`.
   *
   * @param acquire
   *   runs uninterruptibly; if it throws, nothing is to be released
   * @param release
   *   runs uninterruptibly, exactly once per successful acquisition
   */
  def apply[T](acquire: Async ?=> T, release: T => Async ?=> Unit): Resource[T] =
    Primitive(() => acquire, release)

  /** A resource released by its `close()` method. */
  def fromAutoCloseable[T <: AutoCloseable](acquire: Async ?=> T): Resource[T] =
    apply(acquire, _.close())

  /** A value that needs no release. */
  def pure[T](value: T): Resource[T] = Pure(value)

  /**
   * A nested scope as a resource (gears' `spawning`): its value is an `Async` whose futures
   * belong to the scope; releasing it cancels them and waits until their threads have ended,
   * as at the end of `Async.group`. Useful beside other resources, or with
   * [[Resource.allocated]] for futures that must live as long as an object.
   *
   * The scope never outlives the one that acquired it: when that one ends (or is cancelled),
   * it cancels this scope's futures and waits for their threads, as for any future of its own,
   * even if the scope was allocated and not released yet; a `release` after that finds nothing
   * left to stop and returns at once. (gears lets an allocated `spawning` scope outlive the
   * scope that acquired it; weft keeps its rule that nothing started inside a scope outlives
   * it, and so a forgotten release never hangs the end of the enclosing scope nor leaks a
   * thread. See ADR 0022.)
   *
   * {{{
   * Resource.spawning.use: scope =>
   *   Future(heartbeat())(using scope) // cancelled and joined when `use` ends
   *   serve()
   * }}}
   */
  def spawning: Resource[Async] = Spawning

  /**
   * A value acquired by [[Resource.allocated]] and its release, run at most once.
   * @param value
   *   the acquired value
   */
  final class Allocated[+T] private[Resource] (val value: T, releaseOnce: Async ?=> Unit):
    private val released = java.util.concurrent.atomic.AtomicBoolean()

    /**
     * Releases the value as `use` would (uninterruptibly, parts in reverse order); only the
     * first call does. A failure of the release is thrown.
     */
    def release()(using Async): Unit =
      if released.compareAndSet(false, true) then releaseOnce

    /** Whether [[release]] has been called. */
    def isReleased: Boolean = released.get

  /** Both resources: `a` acquired first, released last. */
  def both[A, B](a: Resource[A], b: Resource[B]): Resource[(A, B)] =
    a.flatMap(x => b.map(y => (x, y)))

  /** All resources in order: acquired left to right, released right to left. */
  def all[T](resources: Seq[Resource[T]]): Resource[Seq[T]] =
    resources.foldRight[Resource[List[T]]](pure(Nil)): (r, rest) =>
      r.flatMap(x => rest.map(x :: _))

  /** An acquire/release pair; holds the error rules. */
  private class Primitive[T](acquire: () => Async ?=> T, release: T => Async ?=> Unit)
      extends Resource[T]:
    def use[R](body: T => R)(using async: Async): R =
      val v = acquireValue("Resource.use")
      val result =
        try body(v)
        catch
          case e: Throwable =>
            releaseAfter(v, e)
            throw e
      val failure = runRelease(v)
      if failure != null then throw failure
      result

    def allocated(using Async): Allocated[T] =
      val v = acquireValue("Resource.allocated")
      Allocated(
        v, {
          val failure = runRelease(v)
          if failure != null then throw failure
        }
      )

    /** Acquires uninterruptibly; a cancellation meanwhile releases the value and is thrown. */
    private def acquireValue(what: String)(using Async): T =
      Cancellation.check(what)
      var acquired = false
      var value: T | Null = null
      try
        uninterruptible:
          value = acquire()
          acquired = true
      catch
        case c: CancellationException if acquired =>
          // cancelled during acquisition: release what we got, then report the cancellation
          releaseAfter(value.asInstanceOf[T], c)
          throw c
      value.asInstanceOf[T]

    /** Releases after `primary` was thrown: a release failure is attached to it. */
    private def releaseAfter(v: T, primary: Throwable)(using Async): Unit =
      val failure = runRelease(v)
      if failure != null && (failure ne primary) then primary.addSuppressed(failure)

    /**
     * Runs `release` uninterruptibly; returns its failure, or `null`. A cancellation deferred
     * during the release is not returned: it stays pending on the scope and surfaces at the next
     * await, so it never hides the body's own outcome.
     */
    private def runRelease(v: T)(using Async): Throwable | Null =
      var failure: Throwable | Null = null
      try
        uninterruptible:
          try release(v)
          catch case e: Throwable => failure = e
      catch case _: CancellationException => () // deferred cancellation: stays pending
      failure

  /** [[Resource.spawning]]: a nested scope, opened and closed as by `Async.group`. */
  private object Spawning extends Primitive[Async](() => openScope, closeScope)

  // A plain group, not a nested scope's: cancelled by the end of `outer`, it leaves once its
  // futures have, so `outer`'s join waits for their threads and not for a release that only
  // the user can call (`ResourceAllocatedSuite`, "an allocated spawning scope ends with the
  // scope that acquired it").
  private def openScope(using outer: Async): Async =
    val g = CompletionGroup()
    g.link(outer.group)
    outer.withGroup(g)

  private def closeScope(scope: Async): Unit =
    val g = scope.group
    g.cancel()
    g.waitCompletion()
    g.unlink(): Unit

  /** Runs `next`; if it throws, releases `a` first (a failure of the release suppressed). */
  private def orRelease[U](a: Allocated[?])(next: => U)(using Async): U =
    try next
    catch
      case e: Throwable =>
        try a.release()
        catch case r: Throwable => if r ne e then e.addSuppressed(r)
        throw e

  /** Releases `second`, then `first`, even if the first release fails (its failure wins). */
  private def releaseBoth(second: Allocated[?], first: Allocated[?])(using Async): Unit =
    orRelease(first)(second.release())
    first.release()

  /** `Resource.pure(value)`. */
  private final class Pure[T](value: T) extends Resource[T]:
    def use[R](body: T => R)(using Async): R = body(value)
    def allocated(using Async): Allocated[T] = Allocated(value, ())

  /** `r.map(f)`. */
  private final class Mapped[T, U](r: Resource[T], f: T => U) extends Resource[U]:
    def use[R](body: U => R)(using Async): R = r.use(t => body(f(t)))
    def allocated(using Async): Allocated[U] =
      val a = r.allocated
      Allocated(orRelease(a)(f(a.value)), a.release())

  /** `r.flatMap(f)`. */
  private final class FlatMapped[T, U](r: Resource[T], f: T => Resource[U]) extends Resource[U]:
    def use[R](body: U => R)(using Async): R = r.use(t => f(t).use(body))
    def allocated(using Async): Allocated[U] =
      val a = r.allocated
      val b = orRelease(a)(f(a.value).allocated)
      Allocated(b.value, releaseBoth(b, a))
