package weft
package internal.flow

import weft.flow.FlowEmit

/**
 * The `emit` of `recover` and `retry`: passes each element on and remembers the exception a
 * stage downstream threw, so that the stage can tell it (compared by identity) from a failure of
 * its own upstream when it unwinds through the upstream's stages.
 */
private[weft] final class DownstreamWatch[T](emit: FlowEmit[T]) extends FlowEmit[T]:

  /** What the stages downstream threw, if they did. */
  var failure: Throwable | Null = null

  def apply(t: T): Unit =
    try emit(t)
    catch
      case e: Throwable =>
        failure = e
        throw e

  /** Whether `e` came from upstream (it is not what downstream threw). */
  def fromUpstream(e: Throwable): Boolean = e ne failure
