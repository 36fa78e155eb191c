package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue}
import scala.util.{Failure, Try}

/**
 * A future that knows whether its result has been read: awaited, polled, or offered to a
 * listener other than a scope's own watcher. [[WatchingGroup]] reports the failures of futures
 * that say they were not read. A future that does not implement it counts as read (nothing is
 * reported for it): `CoreFuture` is to implement it (ADR 0013, docs/adr).
 */
private[weft] trait ObservedResult:

  /** Whether anyone but a scope's watcher has read (or been offered) this future's result. */
  def resultObserved: Boolean

/**
 * The group of a plain scope that reports, when the scope ends, the failures nobody observed.
 *
 * Every runnable future that joins gets a listener that keeps it if it fails with anything but a
 * `CancellationException`; [[reportUnobserved]], called by the scope after its join, hands the
 * failure of each kept future whose result was never read to [[UnobservedFailures]]. The
 * listener is marked [[WatchingGroup.Watcher]] so that a future does not count it as a reader.
 */
private[weft] class WatchingGroup(
    observed: CoreFuture[?] => Boolean = WatchingGroup.observedFlag
) extends CompletionGroup:
  private val failed = ConcurrentLinkedQueue[CoreFuture[?]]()

  private val watcher = WatchingGroup.Watcher(f => failed.add(f): Unit)

  override private[weft] def add(member: Cancellable): GroupEntry =
    val entry = super.add(member)
    member match
      case f: RunnableFuture[?] => f.asInstanceOf[RunnableFuture[Any]].onComplete(watcher)
      case _                    => ()
    entry

  /**
   * Reports the failures of this group's futures that nobody read, each once, in the order they
   * failed. Call after the group's join: a future read before then counts as observed.
   */
  private[weft] def reportUnobserved(): Unit =
    var f = failed.poll()
    while f != null do
      if !observed(f) then
        f.resultNow match
          case Failure(e) => UnobservedFailures.report(e)
          case _          => ()
      f = failed.poll()

private[weft] object WatchingGroup:

  /**
   * The watching group of a nested scope (as `CompletionGroup.scoped()`): it leaves its parent
   * group itself, once the scope has joined.
   */
  def scoped(): WatchingGroup = new WatchingGroup():
    override private[weft] def leavesByItself: Boolean = true

  /** Whether `f` says its result was read; a future without the flag counts as read. */
  def observedFlag(f: CoreFuture[?]): Boolean = f match
    case o: ObservedResult => o.resultObserved
    case _                 => true

  /** The listener of a watching scope: keeps each future that fails other than by cancelling. */
  final class Watcher(keep: CoreFuture[?] => Unit) extends Listener[Try[Any]]:
    val lock: ListenerLock | Null = null
    def complete(result: Try[Any], source: Source[Try[Any]]): Unit = result match
      case Failure(_: CancellationException) => ()
      case Failure(_) =>
        source match
          case f: CoreFuture[?] => keep(f)
          case _                => ()
      case _ => ()
