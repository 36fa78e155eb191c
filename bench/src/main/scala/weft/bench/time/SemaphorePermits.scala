package weft.bench.time

/** Parameters of [[SemaphoreUncontended]] and [[SemaphoreContended]]. */
object SemaphorePermits:
  /** Acquire/release pairs per invocation. */
  inline val N = 8000

  /** Fibers in the contended variants. */
  inline val Fibers = 8

  /** Pairs per fiber in the contended variants. */
  inline val PerFiber = N / Fibers
