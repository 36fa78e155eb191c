package weft.keyed

/**
 * Thrown by [[Sequentially.run]] and [[Sequentially.submit]] once the executor is closed (by
 * [[Sequentially.close]], or because its scope ended); also by calls that were waiting for room
 * in a full key queue when it closed.
 */
final class SequentiallyClosedException
    extends IllegalStateException(
      "Sequentially is closed: it accepts no new tasks (close() was called or its scope ended)"
    )
