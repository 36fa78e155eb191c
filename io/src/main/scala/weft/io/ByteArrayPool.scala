package weft.io

import java.lang.ref.SoftReference
import java.util.concurrent.atomic.AtomicReferenceArray

/**
 * Reusable byte arrays for `File.readString`, so that reading a large file allocates (and
 * zeroes) only the `String` it returns.
 *
 * ==Algorithm==
 * One slot per power-of-two size class from 16 KiB to 64 MiB. [[take]] empties the slot of the
 * smallest class that fits (`getAndSet(null)`: lock-free, and two takers never share an array)
 * and allocates when the slot is empty; [[give]] puts the array back (`set`), replacing any
 * array a concurrent user returned meanwhile. Arrays are held through `SoftReference`s, so an
 * idle pool never keeps memory the collector needs. Requests below 16 KiB are allocated exactly
 * (a small allocation is cheaper than the pool) and so are requests above 64 MiB (too big to
 * keep).
 */
private[io] object ByteArrayPool:
  private inline val MinShift = 14
  private inline val MaxShift = 26
  private val slots = AtomicReferenceArray[SoftReference[Array[Byte]] | Null](MaxShift + 1)

  private def classOf(size: Int): Int = 32 - Integer.numberOfLeadingZeros(size - 1)

  /** An array of at least `size` bytes, owned by the caller until [[give]]. */
  def take(size: Int): Array[Byte] =
    if size < (1 << MinShift) || size > (1 << MaxShift) then new Array[Byte](size)
    else
      val c = classOf(size)
      val ref = slots.getAndSet(c, null)
      val a = if ref == null then null else ref.get()
      if a != null then a else new Array[Byte](1 << c)

  /** Returns an array obtained from [[take]]; the caller must not use it afterwards. */
  def give(a: Array[Byte]): Unit =
    val n = a.length
    if n >= (1 << MinShift) && n <= (1 << MaxShift) && Integer.bitCount(n) == 1 then
      slots.set(classOf(n), SoftReference(a))
