package weft
package internal.keyed

import weft.keyed.*

import java.util.concurrent.atomic.AtomicReferenceArray
import weft.internal.runtime.CacheLine

/**
 * The queue of work ready for the workers of a [[WorkerPool]]: a Michael–Scott linked queue
 * (many producers, many consumers, lock-free) laid out for one producer that keeps offering
 * while a worker polls right behind it.
 *
 * `ConcurrentLinkedQueue`, used before, keeps `head` and `tail` in one object, so each poll's
 * write of `head` took away the line the next offer reads `tail` from; and its poll clears the
 * polled node's item, a write to the node the next offer links to. Here `head` and `tail` sit a
 * cache line apart (slots of one padded array), and a consumer never writes a node: the polled
 * node becomes the new dummy with its item left in place (one item is retained until the next
 * poll; an item is a task or a lane that has run or is running anyway). The
 * sequentially-batch-1000 benchmark re-checks the layout (docs/perf/keyed.md); `ReadyQueueSuite`
 * model-checks the queue against a sequential FIFO.
 *
 * Algorithm (Michael and Scott, 1996): the list always starts with a dummy node at `head`.
 * `offer` links a new node after the last one by CAS of its `next` (the linearization point),
 * then swings `tail` to it (any thread that finds `tail` lagging swings it first). `poll` moves
 * `head` to the dummy's successor by CAS (the linearization point) and returns that node's item.
 * `tail` may lag one node behind `head`; nodes are never reused, so there is no ABA.
 */
private[weft] final class ReadyQueue:
  import ReadyQueue.*

  private val ends = AtomicReferenceArray[Node](Slots)
  locally:
    val dummy = Node(null)
    ends.set(HeadSlot, dummy)
    ends.set(TailSlot, dummy)

  /** Appends `item` (never `null`). */
  def offer(item: ReadyWork): Unit =
    val node = Node(item)
    var done = false
    while !done do
      val t = ends.get(TailSlot)
      val n = t.next
      if n != null then ends.compareAndSet(TailSlot, t, n)
      else if Node.NEXT.compareAndSet(t, null, node) then
        ends.compareAndSet(TailSlot, t, node)
        done = true

  /** Removes and returns the first item, or `null` if there is none. */
  def poll(): ReadyWork | Null =
    var result: ReadyWork | Null = null
    var done = false
    while !done do
      val h = ends.get(HeadSlot)
      val n = h.next
      if n == null then done = true
      else if ends.compareAndSet(HeadSlot, h, n) then
        result = n.item
        done = true
    result

  /** Whether no item is queued (a volatile read of the first link). */
  def isEmpty: Boolean = ends.get(HeadSlot).next == null

private[weft] object ReadyQueue:
  /**
   * Slots of the padded array: `head` and `tail` a cache line apart (see `CacheLine`; a
   * reference takes 4 bytes with compressed pointers, 8 without, which only spaces them more).
   */
  inline def Slots: Int = CacheLine.arrayLength(2, 4)
  inline def HeadSlot: Int = CacheLine.slot(0, 4)
  inline def TailSlot: Int = CacheLine.slot(1, 4)

  /** A link of the queue; `item` is written before the node is published, never after. */
  final class Node(val item: ReadyWork | Null):
    @volatile var next: Node | Null = scala.compiletime.uninitialized

  object Node:
    val NEXT: java.lang.invoke.VarHandle =
      java.lang.invoke.MethodHandles
        .privateLookupIn(classOf[Node], java.lang.invoke.MethodHandles.lookup())
        .findVarHandle(classOf[Node], "next", classOf[Node])
