package weft.memcached

import weft.Async

/**
 * The client's time reads: the clock of the caller's support, so that a deadline inside
 * `weft-testkit`'s virtual time is counted in virtual time, as the timer that enforces it is.
 */
private[memcached] object Clocks:

  /** The caller's support's clock, in nanoseconds. */
  inline def now()(using async: Async): Long = async.support.clock.nanoTime()
