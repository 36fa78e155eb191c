package weft

/**
 * Something that can be awaited: it eventually offers values of type `T` to listeners.
 *
 * A source exposes polling (`poll`) and a listener registry (`onComplete`, `dropListener`).
 * Awaiting a source (`Async.await(src)`) registers a listener and suspends
 * the caller until the listener is completed. See [[Listener]] for the completion protocol.
 *
 * Deriving sources (`map`, `filter`, `Async.race`) never consumes the underlying sources: a
 * derived source only forwards listeners to them.
 *
 * @tparam T
 *   the type of the values offered
 */
trait Source[+T]:

  /**
   * If a value is ready now, offers it to `k` (which may take or decline it) and returns `true`;
   * otherwise returns `false` without touching `k`. Never blocks.
   */
  def poll(k: Listener[T]): Boolean

  /**
   * Registers `k` to be offered a value once one is ready; if one is ready now, it is offered
   * at once and `k` is not registered.
   */
  def onComplete(k: Listener[T]): Unit

  /**
   * Removes a registered listener equal to `k` (derived sources re-create equal wrappers);
   * otherwise does nothing.
   */
  def dropListener(k: Listener[T]): Unit

  /**
   * Whether this source completes a listener holding that listener's lock alone, never paired
   * with another listener's lock (a future does; a channel pairs a reader with a sender). A
   * select whose other cases park in channel cells may contain such a source (see `Selector`).
   */
  private[weft] def completesUnpaired: Boolean = false

  /**
   * The value this source would offer every listener now, if it is final and cannot be
   * declined (a completed future's result), else `null`: awaiting it then reads it with no
   * listener and no allocation. Sources whose values are taken (a channel) return `null`.
   */
  private[weft] def readyValue: AnyRef | Null = null

  /** The ready value, if any, taken now; `None` if not ready. Never blocks. */
  def poll(): Option[T] =
    var result: Option[T] = None
    poll(Listener((v, _) => result = Some(v)))
    result

  /**
   * A source offering `f(v)` for each value `v` of this one. `f` runs inside the completing
   * source's call and may run more than once per value, so it must be pure, fast and
   * non-blocking.
   */
  def map[U](f: T => U): Source[U] = Source.Mapped(this, f)

  /**
   * A source offering only the values satisfying `p`; the values it declines are not consumed
   * and stay with this source for other listeners. `p` must be fast, pure and non-blocking.
   */
  def filter(p: T => Boolean): Source[T] = Source.Filtered(this, p)

/**
 * A source that holds its own state (a future, a timer, a channel): it completes listeners
 * itself, rather than forwarding them to other sources.
 *
 * Implementations provide [[poll]] and [[addListener]]; `onComplete` is `poll`, then
 * `addListener` if nothing was ready. Implementations must make the pair atomic with respect to
 * completion (a value arriving between the two still reaches the listener).
 */
abstract class OriginalSource[+T] extends Source[T]:

  /** Registers `k` for a value that is not ready yet. */
  protected def addListener(k: Listener[T]): Unit

  def onComplete(k: Listener[T]): Unit =
    if !poll(k) then addListener(k)

/** Derived sources. */
object Source:

  /** A listener forwarding to `k` through a transformation; shares `k`'s lock. */
  private abstract class Forwarder[T, U](val k: Listener[U]) extends Listener[T]:
    val lock: ListenerLock | Null = k.lock
    override def equals(that: Any): Boolean = that match
      case f: Forwarder[?, ?] => (f.getClass eq getClass) && (f.k eq k)
      case _                  => false
    override def hashCode: Int = k.hashCode

  /** `src.map(f)`: forwarding listeners are recognised by equality, so `dropListener` works. */
  final private[weft] class Mapped[T, U](src: Source[T], f: T => U) extends Source[U]:
    private def wrap(to: Listener[U]): Listener[T] = new Forwarder[T, U](to):
      override def accepts(data: T): Boolean = k.accepts(f(data))
      def complete(data: T, source: Source[T]): Unit = k.complete(f(data), Mapped.this)
    def poll(k: Listener[U]): Boolean = src.poll(wrap(k))
    def onComplete(k: Listener[U]): Unit = src.onComplete(wrap(k))
    def dropListener(k: Listener[U]): Unit = src.dropListener(wrap(k))

  /** `src.filter(p)`: the wrapper declines (in `accepts`) the values `p` rejects. */
  final private[weft] class Filtered[T](src: Source[T], p: T => Boolean) extends Source[T]:
    private def wrap(to: Listener[T]): Listener[T] = new Forwarder[T, T](to):
      override def accepts(data: T): Boolean = p(data) && k.accepts(data)
      def complete(data: T, source: Source[T]): Unit = k.complete(data, Filtered.this)
    def poll(k: Listener[T]): Boolean = src.poll(wrap(k))
    def onComplete(k: Listener[T]): Unit = src.onComplete(wrap(k))
    def dropListener(k: Listener[T]): Unit = src.dropListener(wrap(k))
