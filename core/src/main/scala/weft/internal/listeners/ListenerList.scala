package weft
package internal.listeners

import java.lang.invoke.VarHandle
import scala.annotation.tailrec

/**
 * The listener registry of a source whose state is one field: a `List` of waiting listeners
 * while pending, anything else once final (a timer's outcome, a stopped ticker). Both changes
 * are compare-and-set loops on that field, through its `VarHandle`; a listener is never added
 * to a final state, so none is left behind once the source has offered its last value.
 */
private[weft] object ListenerList:

  /**
   * Adds `k` to the list held in `state` of `owner`; returns `null` if it did, otherwise the
   * final state found (the caller then offers `k` the final value itself).
   */
  @tailrec
  def push(owner: AnyRef, state: VarHandle, k: Listener[?]): AnyRef | Null =
    (state.getVolatile(owner): AnyRef) match
      case ks: List[?] =>
        if state.compareAndSet(owner, ks, k :: ks) then null else push(owner, state, k)
      case done => done

  /** Removes one registration of `k` from the list held in `state`, if pending. */
  @tailrec
  def remove(owner: AnyRef, state: VarHandle, k: Listener[?]): Unit =
    (state.getVolatile(owner): AnyRef) match
      case ks: List[?] =>
        val i = ks.indexOf(k)
        if i >= 0 && !state.compareAndSet(owner, ks, ks.patch(i, Nil, 1)) then
          remove(owner, state, k)
      case _ => ()
