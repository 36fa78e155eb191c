package weft

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import org.jetbrains.kotlinx.lincheck.annotations.{Operation, Validate}
import scala.jdk.CollectionConverters.*

/**
 * The lock-free membership of [[CompletionGroup]] under every interleaving of adding, leaving,
 * cancelling and pruning (a prune after every push): after each execution the group's
 * count and its listed members are exactly the members linked and neither unlinked nor
 * cancelled, and a cancelled group has cancelled every member ever linked (none slipped in
 * during the cancellation). Nested groups (empty ones, linked as members) must follow the
 * same rule: a cancelled one leaves at once, as it has no members to wait for, so none stays
 * live in a cancelled group (the pair of `cancel` and `memberLeft` that makes a drained group
 * leave). Leaving and cancelling have no sequential result worth comparing, so the operations
 * return nothing and [[check]] validates.
 */
class LincheckGroupMembership:
  private val group = new CompletionGroup:
    override private[weft] def pruneSlack: Int = -1000 // prune on every push
  private val linked = ConcurrentLinkedQueue[Member]()
  private val toLeave = ConcurrentLinkedQueue[Member]()
  private val nested = ConcurrentLinkedQueue[CompletionGroup]()

  /** A member without a thread (as a promise): the group removes it when it cancels it. */
  private final class Member extends Cancellable:
    val cancels = AtomicInteger()
    @volatile var unlinked = false
    def cancel(): Unit = cancels.incrementAndGet(): Unit

  @Operation def add(): Unit =
    val m = Member()
    linked.add(m)
    m.link(group)
    toLeave.add(m): Unit

  @Operation def addAndLeave(): Unit =
    val m = Member()
    linked.add(m)
    m.link(group)
    m.unlinked = true
    m.unlink(): Unit

  @Operation def leave(): Unit =
    val m = toLeave.poll()
    if m != null then
      m.unlinked = true
      m.unlink(): Unit

  @Operation def cancel(): Unit = group.cancel()

  @Operation def addGroup(): Unit =
    val g = CompletionGroup()
    nested.add(g)
    g.link(group): Unit

  @Operation def cancelNested(): Unit =
    val g = nested.peek()
    if g != null then g.cancel()

  @Validate def check(): Unit =
    val all = linked.asScala.toList
    val groups = nested.asScala.toList
    val expected: Set[Cancellable] =
      all.filter(m => !m.unlinked && m.cancels.get == 0).toSet ++ groups.filter(!_.isCancelled)
    val listed = group.memberSnapshot.toList
    if group.size != expected.size then
      throw AssertionError(s"size ${group.size}, expected ${expected.size}")
    if listed.toSet != expected || listed.size != expected.size then
      throw AssertionError(s"listed ${listed.size} members, expected ${expected.size}")
    if group.isCancelled && all.exists(m => !m.unlinked && m.cancels.get == 0) then
      throw AssertionError("a member linked to a cancelled group was not cancelled")
    if !group.isCancelled && all.exists(_.cancels.get != 0) then
      throw AssertionError("a member was cancelled without its group")
    if group.isCancelled && groups.exists(!_.isCancelled) then
      throw AssertionError("a nested group linked to a cancelled group was not cancelled")
    if expected.isEmpty then group.waitCompletion() // returns at once when empty

/**
 * Model checking and stress of the group's membership (see [[LincheckGroupMembership]]). With
 * `WEFT_STRESS=full` they run at full size; `./sbtw test` checks a small sample, sized to stay
 * far below the time limit on a loaded 2-core machine (a fifth of the full size once took most
 * of it).
 */
class GroupMembershipLincheckSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(170, "s")

  test("membership: model checking"):
    LincheckRuns.modelCheck(
      classOf[LincheckGroupMembership],
      iterations = 100,
      invocations = 200,
      threads = 3,
      actorsPerThread = 2,
      sample = 4
    )

  test("membership: stress"):
    LincheckRuns.stress(
      classOf[LincheckGroupMembership],
      iterations = 20,
      invocations = 500,
      threads = 3,
      actorsPerThread = 4,
      sample = 2
    )
