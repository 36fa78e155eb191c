package weft

/** One case of [[Async.select]]: a source and the handler for its value. */
final case class SelectCase[T, R](source: Source[T], handler: T => R)

extension [T](src: Source[T])
  /** Pairs this source with a handler, as one case of [[Async.select]]. */
  infix def handle[R](f: T => R): SelectCase[T, R] = SelectCase(src, f)

  /** Alias of [[handle]]: `src ~~> (v => ...)`. */
  inline def ~~>[R](f: T => R): SelectCase[T, R] = SelectCase(src, f)
