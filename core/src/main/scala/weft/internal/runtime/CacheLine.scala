package weft
package internal.runtime

import weft.runtime.*

/**
 * Weft's one idiom for keeping a hot atomic slot on a cache line of its own: the slots live in
 * one array (`AtomicIntegerArray`, `AtomicReferenceArray`, or a `long[]` through a `VarHandle`),
 * a line apart from each other and from the array's ends, so that no other object's fields
 * share their line. Slot `n` sits at [[slot]]`(n, elementBytes)` in an array of
 * [[arrayLength]]`(slots, elementBytes)` elements.
 *
 * The JVM gives no control over field layout (`@Contended` needs a flag for user classes), so
 * arrays are the only layout it keeps. The one exception is a keyed lane, whose hot fields are
 * read on every task: there an array would add an indirection, so its fields are separated by
 * unused fields in a superclass (`LaneProducerFields`), which the JVM lays out first.
 */
private[weft] object CacheLine:

  /** The size of a cache line assumed (x86-64 and most ARM cores). */
  inline val Bytes = 64

  /** The index of slot `n` (from 0) in an array of elements of `elementBytes` bytes. */
  inline def slot(inline n: Int, inline elementBytes: Int): Int = (n + 1) * (Bytes / elementBytes)

  /** The length of an array holding `slots` slots, each a line from the next and the ends. */
  inline def arrayLength(inline slots: Int, inline elementBytes: Int): Int =
    (slots + 1) * (Bytes / elementBytes)
