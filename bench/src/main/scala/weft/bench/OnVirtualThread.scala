package weft.bench

/**
 * Runs a benchmark's loop on a fresh virtual thread and waits for it: the single
 * platform-to-virtual handoff that `@OperationsPerInvocation` amortises.
 */
object OnVirtualThread:

  /**
   * weft's loop: `Async.blocking` entered on a new virtual thread. `Async.blocking` runs its body
   * on the calling thread, which here is a JMH platform thread; every peer's loop gets the same
   * one handoff to a virtual thread through [[run]], so weft's does too.
   */
  def blocking[T](body: _root_.weft.Async ?=> T): T = run(_root_.weft.Async.blocking(body))

  /** Runs `body` on a new virtual thread; returns its value or rethrows its exception. */
  def run[T](body: => T): T =
    var result: Option[T] = None
    var failure: Throwable = null
    val t = Thread.ofVirtual().start { () =>
      try result = Some(body)
      catch case e: Throwable => failure = e
    }
    t.join()
    if failure != null then throw failure
    result.get
