package weft.keyed

/**
 * Thrown by [[Sequentially.run]] and [[Sequentially.submit]] to a live caller once the executor
 * is closed on purpose ([[Sequentially.close]], or [[Sequentially.cancel]] while its scope goes
 * on); also by such calls that were waiting for room in a full key queue when it closed. Once
 * the executor's scope is ending, or when the caller itself is being cancelled, they throw a
 * `CancellationException` instead: the task ends as cancelled, like those already queued.
 */
final class SequentiallyClosedException
    extends IllegalStateException(
      "Sequentially is closed: it accepts no new tasks (close() or cancel() was called)"
    )
