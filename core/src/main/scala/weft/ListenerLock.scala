package weft

import java.util.concurrent.atomic.AtomicLong

/**
 * The lock of a racing [[Listener]]: held briefly by the source completing the listener.
 *
 * Besides mutual exclusion it records that the listener has been completed, after which
 * [[acquire]] fails forever.
 */
trait ListenerLock:

  /**
   * The lock's place in the global locking order: unique among all locks, and taken from one
   * counter that only grows, so two locks are always taken lowest number first.
   */
  def number: Long

  /** Spins until the lock is held (`true`) or the listener is completed (`false`). */
  def acquire(): Boolean

  /** Releases a held lock, leaving the listener completable. */
  def release(): Unit

/** The global numbering of listener locks. */
private[weft] object ListenerLock:
  private val counter = AtomicLong()

  /** A fresh lock number; numbers only grow, so they define a total order. */
  def nextNumber(): Long = counter.incrementAndGet()
