package weft.flow

import java.util.concurrent.CancellationException
import java.util.concurrent.atomic.AtomicInteger
import weft.*
import weft.testing.Waits

/**
 * Cancelling the caller midway through a run stops every stage of every asynchronous boundary:
 * the run ends with the cancellation, each started source's `finally` ran, no thread is left.
 * Two consumers: one busy taking elements, one blocked on its first.
 */
class FlowBoundaryCancelSuite extends munit.FunSuite, FlowTesting:

  /**
   * Runs `b` over an endless source in a future of a group, cancels the future once the source
   * offers its element `midwayAt`, and checks what is left once the group has joined it. The whole
   * runs on a caller thread of the given kind that must end within 20 s, so that a stage that
   * ignores the cancellation fails the test naming its boundary.
   */
  def cancelMidway(
      b: FlowBoundaries.Boundary,
      blockedConsumer: Boolean,
      virtual: Boolean,
      midwayAt: Int = -1
  ): Unit =
    // with a consumer blocked on its first element, a rendezvous lets only the next element be
    // offered; a busy consumer lets the source go far
    val at = if midwayAt >= 0 then midwayAt else if blockedConsumer then 1 else 50
    val what = s"${b.name}, ${if blockedConsumer then "blocked" else "busy"} consumer"
    val probe = Probe()
    val started = AtomicInteger()
    val source = Flow.usingEmit[Int] { emit =>
      probe.here()
      started.incrementAndGet()
      try
        var i = 0
        while !probe.abandoned do
          emit(i)
          i += 1
      finally probe.finallies.incrementAndGet(): Unit
    }
    FlowWait.onOwnThread(s"$what: the cancelled run's stages did not all end", probe, virtual):
      val midway = Promise[Unit]()
      Async.group:
        val run = Future:
          b.wrap(source.tap(i => if i == at then midway.success(()))).runForeach { _ =>
            probe.here()
            if blockedConsumer then FlowWait.forever() else weft.runtime.Fiber.yieldNow()
          }
        FlowWait.on(midway, s"$what: the source got going")
        run.cancel()
        run.result.failed.toOption match
          case Some(_: CancellationException) => ()
          case other => fail(s"$what: the run ended with $other, not a cancellation")
    assertEquals(probe.finallies.get, started.get, s"$what: a source's finally did not run")
    probe.assertNoneAlive(what)

  for virtual <- Seq(false, true); blocked <- Seq(false, true) do
    val callerKind = if virtual then "virtual" else "platform"
    val consumer = if blocked then "a blocked" else "a busy"
    test(s"cancelled midway with $consumer consumer: every stage stopped ($callerKind caller)"):
      for b <- FlowBoundaries.all do cancelMidway(b, blocked, virtual)

  test("cancelled midway in the boundary's own work (mapPar, flatMapMerge, groupBy)"):
    val inWork = List[(String, Flow[Int] => Flow[Int])](
      "mapPar" -> (_.mapPar(3)(_ => FlowWait.forever())),
      "mapParUnordered" -> (_.mapParUnordered(3)(_ => FlowWait.forever())),
      "flatMapMerge" -> (_.flatMapMerge(3)(_ => Flow.usingEmit[Int](_ => FlowWait.forever()))),
      "groupBy" -> (_.groupBy(3, _ % 3)((_, sub) => sub.mapPar(1)(_ => FlowWait.forever())))
    )
    for (name, op) <- inWork do
      val b = FlowBoundaries.Boundary(s"$name (work waiting)", op)
      cancelMidway(b, blockedConsumer = false, virtual = false, midwayAt = 2)

  flowTest("a timeout around a run of boundaries stops them all"):
    for b <- FlowBoundaries.all do
      val probe = Probe()
      val started = AtomicInteger()
      val source = Flow.usingEmit[Int] { emit =>
        probe.here()
        started.incrementAndGet()
        try while !probe.abandoned do emit(1)
        finally probe.finallies.incrementAndGet(): Unit
      }
      val got = FlowWait.onOwnThread(b.name, probe, Thread.currentThread().isVirtual):
        withTimeoutOption(scala.concurrent.duration.Duration(5, "ms")):
          b.wrap(source).runForeach(_ => probe.here())
      assertEquals(got, None, s"${b.name}: an endless run ended")
      assertEquals(probe.finallies.get, started.get, s"${b.name}: a source's finally did not run")
      probe.assertNoneAlive(b.name)
