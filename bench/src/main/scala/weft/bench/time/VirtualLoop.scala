package weft.bench.time

/**
 * Runs a benchmark's loop on a fresh virtual thread and waits for it, so that every contender's
 * loop runs on the same kind of thread (the platform-to-virtual handoff is amortised by
 * `@OperationsPerInvocation`).
 */
object VirtualLoop:

  /** Runs `body` on a new virtual thread; returns its value or rethrows its exception. */
  def run[T](body: => T): T =
    @volatile var result: Option[T] = None
    @volatile var failure: Throwable | Null = null
    val t = Thread.ofVirtual().start { () =>
      try result = Some(body)
      catch case e: Throwable => failure = e
    }
    t.join()
    val f = failure
    if f != null then throw f
    result.get
