package weft

import weft.runtime.AsyncSupport

/**
 * The hook of context bridges (the MDC bridge of `weft-slf4j`): a context whose fibers are
 * started by another [[AsyncSupport]], typically one that wraps each fiber's body.
 *
 * A runnable future gives its body a context with its parent's support, so a support set here
 * is used by every future started under the returned context and by the futures those start.
 */
private[weft] object ForkHook:

  /** `async` with its futures started by `support`; its group and its runner are kept. */
  def withSupport(async: Async, support: AsyncSupport): Async = async match
    case j: JvmAsync => JvmAsync(j.group, j.runner, support)
    case r: Runner   => JvmAsync(async.group, r, support) // a future's body's own context
    case other       => throw IllegalArgumentException(s"not a weft context: $other")
