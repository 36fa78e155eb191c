package weft

import java.util.concurrent.ConcurrentLinkedQueue

/**
 * A scope may live for days: it holds nothing for a failed future once that failure has been
 * observed, and at most a bounded number of failures nobody observed yet (the oldest beyond the
 * bound are reported at once rather than held to the scope's end). Every failure still reaches
 * the handler exactly once when nobody observes it.
 */
class HeldFailuresSuite extends munit.FunSuite, weft.testing.FailureChecks:
  override def callerDeadlineSeconds: Int = 60

  /**
   * Starts a future that fails and waits until it has left `group` (its failure, unobserved
   * when its body ended, then went through the group's bookkeeping), without reading it.
   */
  def failedAndLeft(i: Int)(using a: Async): Future[Int] =
    val f = Future[Int](throw IllegalStateException(s"failure $i"))
    while a.group.size != 0 do Thread.`yield`()
    f

  onBothCallers("a long-lived scope holds nothing for failures awaited after they happened"):
    var held = -1
    val reports = reported:
      Async.blocking:
        Async.group:
          for i <- 1 to 5000 do
            val f = failedAndLeft(i)
            assert(f.result.isFailure)
          held = summon[Async].group.heldFailures
    assert(held <= 2 * CompletionGroup.HeldFailureSlack, s"$held failures held after 5000")
    assertEquals(reports, Nil)

  onBothCallers("unobserved failures are held up to a bound, then reported early, each once"):
    var held = -1
    val n = CompletionGroup.HeldFailureLimit * 3
    val reports = reported:
      Async.blocking:
        Async.group:
          for i <- 1 to n do failedAndLeft(i): Unit
          held = summon[Async].group.heldFailures
        // counted here, before the group's end reports the rest
        : Unit
    assert(
      held <= 2 * CompletionGroup.HeldFailureLimit + CompletionGroup.HeldFailureSlack + 1,
      s"$held failures held after $n unobserved ones"
    )
    val messages = reports.map(_.getMessage)
    assertEquals(messages.distinct.size, messages.size, "a failure was reported twice")
    assertEquals(messages.toSet, (1 to n).map(i => s"failure $i").toSet)

  // The bound itself, not only its order of magnitude: a sweep keeps exactly the newest
  // `HeldFailureLimit` unobserved failures and reports every older one at once, so after each
  // failure the held ones and the reported ones add up to the failures so far.
  onBothCallers("a sweep holds exactly HeldFailureLimit unobserved failures, reports the rest"):
    val limit = CompletionGroup.HeldFailureLimit
    val n = limit * 3
    val reports = ConcurrentLinkedQueue[Throwable]()
    var afterSweeps = List.empty[(Int, Int)] // (failures so far, held) when a sweep dropped some
    UnobservedFailures.withHandler(e => reports.add(e): Unit):
      Async.blocking:
        Async.group:
          var before = 0
          for i <- 1 to n do
            failedAndLeft(i): Unit
            val held = summon[Async].group.heldFailures
            assertEquals(held + reports.size, i, s"after $i failures: $held held")
            if held < before then afterSweeps = (i, held) :: afterSweeps
            before = held
        : Unit
    assert(afterSweeps.nonEmpty, s"no sweep dropped a failure in $n")
    for (i, held) <- afterSweeps do
      assertEquals(held, limit, s"held after the sweep at failure $i")
    assertEquals(reports.size, n, "every failure reported by the group's end")
