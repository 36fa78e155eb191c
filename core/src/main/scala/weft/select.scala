package weft

/**
 * One case of [[Async.select]]: a source and the handler for its value, written `src ~~> handler`.
 *
 * {{{
 * Async.select(
 *   orders.canRead ~~> (o => s"got ${o.get}"),          // a channel read: a Try
 *   reply ~~> (r => s"reply ${r.get}"),                 // a future: a Try too
 *   timer ~~> (_ => "nothing within the time")          // a Timer: true when it rang
 * )
 * }}}
 * The handler of the winning case runs on the caller's thread, outside any lock; cases may
 * mix source types as long as their handlers return the same type.
 */
final class SelectCase[T, R] private[weft] (
    private[weft] val source: Source[T],
    private[weft] val handler: T => R
)

extension [T](src: Source[T])
  /** Pairs this source with a handler, as one case of [[Async.select]]: `src ~~> (v => ...)`. */
  def ~~>[R](f: T => R): SelectCase[T, R] = SelectCase(src, f)
