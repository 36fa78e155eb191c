package weft

extension [T](src: Source[T])
  /**
   * The values `src` offers, as an iterator: each `next()` awaits the next value (as
   * `Async.await(src)`), so the iterator suspends the caller and never ends by itself. Take what
   * you need from it: `ticker.values.take(3)`, `channel.canRead.values.takeWhile(_.isSuccess)`.
   * A source that keeps its value (a completed future) yields it again and again.
   *
   * Cancellation of the scope makes `next()` throw a `CancellationException`, as any await.
   * The iterator belongs to the fiber that made it: do not share it between fibers.
   *
   * {{{
   * for tick <- Ticker(100.millis).values.take(5) do poll()
   * }}}
   */
  def values(using async: Async): Iterator[T] = new Iterator[T]:
    def hasNext: Boolean = true
    def next(): T = async.await(src)
