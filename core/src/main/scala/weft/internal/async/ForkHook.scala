package weft
package internal.async

import weft.runtime.AsyncSupport
import weft.internal.InternalApi

/**
 * The hook of context bridges (the MDC bridge of `weft-slf4j`): a context whose fibers are
 * started by another [[weft.runtime.AsyncSupport]], typically one that wraps each fiber's body.
 *
 * A runnable future gives its body a context with its parent's support, so a support set here
 * is used by every future started under the returned context and by the futures those start.
 */
@InternalApi
object ForkHook:

  /** `async` with its futures started by `support`; its group and its runner are kept. */
  def withSupport(async: Async, support: AsyncSupport): Async = async match
    case j: AsyncContext => AsyncContext(j.group, j.runner, support)
    case r: BodyRunner   => AsyncContext(async.group, r, support) // a future's body's own context
    case other           => throw IllegalArgumentException(s"not a weft context: $other")
