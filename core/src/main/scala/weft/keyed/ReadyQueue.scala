package weft.keyed

import java.lang.invoke.{MethodHandles, VarHandle}
import java.util.concurrent.atomic.AtomicReferenceArray

/**
 * The lanes ready to run, waiting for a worker of the [[WorkerPool]]: a lock-free FIFO queue
 * that many fibers offer to and many workers poll.
 *
 * ==Algorithm==
 * Michael and Scott's queue (PODC 1996), with the lanes themselves as its nodes: a lane is linked
 * through its `nextReady` field ([[ReadyLink]]), so an offer allocates nothing. `head` points to
 * a dummy node (at first a bare [[ReadyLink]], later the lane polled last), `tail` to the last
 * node or, briefly, the one before it:
 *   - offer: CAS the last node's `nextReady` from `null` to the lane (the linearization point),
 *     then swing `tail` forward (anyone who sees a lagging `tail` swings it first);
 *   - poll: read the dummy's successor; `null` means empty; otherwise CAS `head` from the dummy
 *     to the successor, which becomes the new dummy and is returned.
 * Reusing a node would expose the algorithm to ABA; a lane is never reused: it is offered at most
 * once in its life (a fresh lane is activated once, and its worker keeps it until it retires).
 *
 * ==Layout==
 * `head` (written by polling workers) and `tail` (written by offering fibers) are the slots 16
 * and 48 of one array of 64 references, each with 64 bytes or more of unused slots around it,
 * so that offers and polls on two cores do not fight over one cache line.
 */
private[keyed] final class ReadyQueue:
  import ReadyQueue.*

  private val ends = AtomicReferenceArray[ReadyLink](Slots)
  locally:
    val dummy = ReadyLink()
    ends.set(Head, dummy)
    ends.set(Tail, dummy)

  /** Appends `lane`, which must never have been offered before. */
  def offer(lane: Lane[?]): Unit =
    var done = false
    while !done do
      val t = ends.get(Tail)
      val n = t.nextReady
      if n == null then
        if NEXT.compareAndSet(t, null, lane) then
          ends.compareAndSet(Tail, t, lane)
          done = true
      else ends.compareAndSet(Tail, t, n) // help a lagging tail forward

  /** Removes and returns the oldest lane, or `null` if there is none. */
  def poll(): Lane[?] | Null =
    var result: Lane[?] | Null = null
    var done = false
    while !done do
      val h = ends.get(Head)
      val n = h.nextReady
      if n == null then done = true
      else
        val t = ends.get(Tail)
        if t eq h then ends.compareAndSet(Tail, t, n) // tail must not fall behind head
        else if ends.compareAndSet(Head, h, n) then
          result = n.asInstanceOf[Lane[?]]
          done = true
    result

  /** Whether no lane is waiting (a snapshot). */
  def isEmpty: Boolean = ends.get(Head).nextReady == null

private[keyed] object ReadyQueue:
  inline val Slots = 64
  inline val Head = 16
  inline val Tail = 48

  val NEXT: VarHandle =
    MethodHandles.privateLookupIn(classOf[ReadyLink], MethodHandles.lookup())
      .findVarHandle(classOf[ReadyLink], "nextReady", classOf[ReadyLink])

/**
 * A node of the [[ReadyQueue]]: the base of every [[Lane]], and the queue's first dummy node.
 * `nextReady` is set once, by the offer that appends the next lane.
 */
private[keyed] class ReadyLink:
  @volatile private[keyed] var nextReady: ReadyLink | Null = null
