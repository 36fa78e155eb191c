package weft

/**
 * A value that follows futures: bound with [[where]] for a block, read with [[get]], and seen by
 * every future started inside the block (and by the futures those start), as ox's `ForkLocal`.
 *
 * A future sees the binding of the fiber that started it, as it was when it was started; a
 * binding made later, or inside the future, is not seen by its parent. Bind immutable values:
 * the parent and its futures share the value itself.
 *
 * {{{
 * val requestId = ForkLocal("none")
 * requestId.where("r-42"):
 *   Future(requestId.get).await // "r-42"
 * requestId.get                 // "none" again
 * }}}
 *
 * Implemented with an `InheritableThreadLocal`: every weft future runs on a virtual thread that
 * the starting fiber creates, and a new thread copies the inheritable values of the thread that
 * creates it. So any thread created inside the block inherits the value too, including threads
 * that weft does not start (a pool's first worker, say).
 * @param default
 *   the value [[get]] returns outside any [[where]] block
 */
final class ForkLocal[T](default: T):
  // A fresh ThreadLocal instance per ForkLocal; `initialValue` gives the default lazily.
  private val local = new InheritableThreadLocal[T]:
    override protected def initialValue(): T = default

  /** The value bound by the innermost enclosing [[where]] (or inherited), else the default. */
  def get: T = local.get()

  /**
   * Runs `body` with this local bound to `value`, for `body` and every future started in it,
   * then restores the previous binding (also when `body` throws).
   */
  def where[R](value: T)(body: => R): R =
    val previous = local.get()
    local.set(value)
    try body
    finally local.set(previous)

/** Creating [[ForkLocal]]s. */
object ForkLocal:

  /** A fork-local whose value is `default` wherever it is not bound. */
  def apply[T](default: T): ForkLocal[T] = new ForkLocal(default)
