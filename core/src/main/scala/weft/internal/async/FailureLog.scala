package weft
package internal.async

import java.lang.invoke.{MethodHandles, VarHandle}
import scala.compiletime.uninitialized

/**
 * The failures of a group's member futures that nobody had observed when their bodies ended,
 * held for the report at the group's join (see [[UnobservedFailures]]); made on a group's first
 * such failure, so a group whose futures never fail allocates nothing here.
 *
 * A scope may live for days, so the log holds nothing per failure for long:
 *   - a failure observed later (awaited after it happened) is dropped by the next sweep;
 *   - of the failures still unobserved, a sweep keeps the newest `limit`, and reports the older
 *     ones at once instead of holding them to the scope's end (a failure that old is most
 *     likely never awaited; if it is, its awaiter still gets it).
 *
 * Adding is a lock-free push onto a stack; once the pushes since the last sweep outnumber the
 * failures that sweep kept by `slack`, the pushing thread sweeps (one at a time): it takes the
 * whole stack, filters it, and pushes the survivors back. A sweep so walks at most
 * `kept + slack + pushes` nodes, amortised O(1) per push. `HeldFailuresSuite` re-checks both
 * bounds; `UnobservedFailuresSuite` that every unobserved failure is still reported once.
 *
 * Every push and sweep is done by a member future before it leaves its group, and the join
 * reports only once every member has left, so the report never misses a node a sweep has taken.
 */
private[weft] final class FailureLog(limit: Int, slack: Int):
  import FailureLog.*

  @volatile private var head: Node | Null = uninitialized
  @volatile private var pushes: Int = uninitialized
  @volatile private var kept: Int = uninitialized
  @volatile private var sweeping: Int = uninitialized

  /** Holds the failed, still unobserved `future`; sweeps if due. */
  def add(future: GroupEntry): Unit =
    val n = Node(future)
    pushChain(n, n)
    val p: Int = PUSHES.getAndAdd(this, 1)
    if p + 1 > kept + slack then sweep()

  /** The failures held now: for tests. */
  def size: Int =
    var count = 0
    var n = head
    while n != null do
      count += 1
      n = n.next
    count

  /** Reports every held failure still unobserved, each once, and empties the log. */
  def reportAll(): Unit =
    var n = HEAD.getAndSet(this, null).asInstanceOf[Node | Null]
    while n != null do
      val e = n.future.unobservedFailure
      if e != null then UnobservedFailures.report(e, UnobservedFailures.AtScopeEnd)
      n = n.next

  /** Pushes the chain `first`..`last` (owned by the caller) onto the stack. */
  private def pushChain(first: Node, last: Node): Unit =
    var h = head
    last.next = h
    while !HEAD.compareAndSet(this, h, first) do
      h = head
      last.next = h

  /**
   * Drops the observed failures, keeps the newest `limit` unobserved ones and reports the rest,
   * if no other thread is sweeping.
   */
  private def sweep(): Unit =
    if SWEEPING.compareAndSet(this, 0, 1) then
      try
        val counted = pushes
        var n = HEAD.getAndSet(this, null).asInstanceOf[Node | Null]
        var first: Node | Null = null
        var last: Node | Null = null
        var count = 0
        while n != null do
          val next = n.next
          val e = n.future.unobservedFailure
          if e != null then
            if count < limit then
              n.next = null
              if last == null then first = n else last.nn.next = n
              last = n
              count += 1
            else UnobservedFailures.report(e, UnobservedFailures.Early)
          n = next
        if first != null then pushChain(first.nn, last.nn)
        kept = count
        PUSHES.getAndAdd(this, -counted): Unit
      finally sweeping = 0

private[weft] object FailureLog:

  /** A held failed future; `next` is written only by the thread that owns the node. */
  final class Node(val future: GroupEntry):
    var next: Node | Null = uninitialized

  private def handle(name: String, tpe: Class[?]): VarHandle =
    MethodHandles.privateLookupIn(classOf[FailureLog], MethodHandles.lookup())
      .findVarHandle(classOf[FailureLog], name, tpe)

  private val HEAD = handle("head", classOf[Node])
  private val PUSHES = handle("pushes", classOf[Int])
  private val SWEEPING = handle("sweeping", classOf[Int])
