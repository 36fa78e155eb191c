package weft.testing

import java.util.concurrent.CancellationException
import weft.*

/** A future body that never ends by itself, for tests of cancellation. */
object UntilCancelled:

  /**
   * Suspends until the calling future (or scope) is cancelled; then runs `onCancel` and
   * rethrows the `CancellationException`.
   */
  def apply(onCancel: => Unit = ())(using Async): Nothing =
    try Promise[Nothing]().future.await
    catch
      case e: CancellationException =>
        onCancel
        throw e
