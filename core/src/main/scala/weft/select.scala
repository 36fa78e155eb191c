package weft

/** One case of [[Async.select]]: a source and the handler for its value. */
final class SelectCase[T, R] private[weft] (
    private[weft] val source: Source[T],
    private[weft] val handler: T => R
)

extension [T](src: Source[T])
  /** Pairs this source with a handler, as one case of [[Async.select]]: `src ~~> (v => ...)`. */
  def ~~>[R](f: T => R): SelectCase[T, R] = SelectCase(src, f)
