package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import weft.*

/**
 * A slow consumer bounds what is produced, at every asynchronous boundary: sources count the
 * elements whose `emit` returned (handed over to the boundary) while the consumer is blocked on
 * its `k`-th element; once the count has settled, produced - consumed is at most what the
 * boundary documents it holds (its channels, plus the work `mapPar` and its kin keep in
 * flight). Then the run is cancelled and must leave no thread behind.
 */
class FlowBackPressureSuite extends munit.FunSuite, FlowTesting:

  /** The consumer blocks on this element (1-based). */
  val k = 5

  /** What one measurement saw. */
  final case class Seen(produced: Int, consumed: Int):
    def ahead: Int = produced - consumed

  /**
   * Runs `build(source)` with a consumer that blocks on its `k`-th element; `source()` makes an
   * endless source counting its handed-over elements (all sources share one count). Returns the
   * counts once the producers have stopped moving, after cancelling the run.
   */
  def measure(build: (() => Flow[Int]) => Flow[Any]): Seen =
    val produced = AtomicInteger()
    val consumed = AtomicInteger()
    val probe = Probe()
    val blocked = Promise[Unit]()
    def source(): Flow[Int] = Flow.usingEmit[Int]: emit =>
      probe.here()
      var i = 0
      while !probe.abandoned do
        emit(i)
        produced.incrementAndGet()
        i += 1
    // the group joins the cancelled run before it returns, so its threads have ended then
    val seen = FlowWait.onOwnThread("the cancelled run", probe):
      Async.group:
        val run = Future:
          build(() => source()).runForeach: x =>
            probe.here()
            val n = x match
              case s: Seq[?] => s.size
              case (_, _)    => 2 // a pair of `zip` took one element of each side
              case _         => 1
            if consumed.addAndGet(n) >= k then
              blocked.success(())
              FlowWait.forever()
        FlowWait.on(blocked, "the consumer got its elements")
        FlowWait.settle(produced.get, "the producers")
        val seen = Seen(produced.get, consumed.get)
        run.cancel()
        seen
    probe.assertNoneAlive("after the cancelled run")
    seen

  def assertAhead(seen: Seen, bound: Int, what: String): Unit =
    assert(seen.ahead >= 0, s"$what: more consumed than produced: $seen")
    assert(
      seen.ahead <= bound,
      s"$what: ${seen.ahead} elements ahead of the consumer, at most $bound: $seen"
    )

  flowTest("buffer(n) runs ahead by exactly n elements, or in batches by at most n"):
    for n <- Seq(1, 3) do
      val seen = measure(src => src().buffer(n))
      assertEquals(seen.ahead, n, s"buffer($n): $seen")
    // batches of n / 4: the channel's batches, the feeder's and what the consumer holds
    for n <- Seq(16, 100, 2048) do
      val seen = measure(src => src().buffer(n))
      assertAhead(seen, n, s"buffer($n)")
      assert(seen.ahead >= n / 2, s"buffer($n) did not run ahead: $seen")

  flowTest("buffer(0) is a rendezvous: nothing runs ahead"):
    assertEquals(measure(src => src().buffer(0)).ahead, 0)

  flowTest("mapPar(p): at most p queued results and p computing"):
    for p <- Seq(1, 4) do
      assertAhead(measure(src => src().mapPar(p)(identity)), 2 * p, s"mapPar($p)")

  flowTest("mapParUnordered(p): at most p results waiting and p computing"):
    for p <- Seq(1, 4) do
      assertAhead(measure(src => src().mapParUnordered(p)(identity)), 2 * p, s"mapParUnordered($p)")

  flowTest("flatMapMerge(p): the output channel plus one element per running sub-flow"):
    val p = 3
    assertAhead(
      measure(src => src().flatMapMerge(p)(i => Flow(i))),
      Flow.DefaultBuffer + p,
      "flatMapMerge"
    )

  flowTest("merge: the shared channel, whatever the number of sources"):
    assertAhead(measure(src => src().merge(src())), Flow.DefaultBuffer, "merge")
    assertAhead(
      measure(src => Flow.merge(src(), src(), src(), src())),
      Flow.DefaultBuffer,
      "Flow.merge"
    )

  flowTest("zip: the other side runs ahead by at most its channel"):
    assertAhead(measure(src => src().zip(src())), Flow.DefaultBuffer, "zip")

  flowTest("interleave: one channel per side"):
    assertAhead(measure(src => src().interleave(src(), 2)), 2 * Flow.DefaultBuffer, "interleave")

  flowTest("groupBy: a channel per open key, the output channel, one element per child"):
    val p = 2
    assertAhead(
      measure(src => src().groupBy(p, _ % 2)((_, f) => f)),
      p * Flow.DefaultBuffer + Flow.DefaultBuffer + p,
      "groupBy"
    )

  flowTest("groupedWithin: the channel before the window"):
    assertAhead(
      measure(src => src().groupedWithin(2, 1.second)),
      Flow.DefaultBuffer,
      "groupedWithin"
    )

  flowTest("a chain of boundaries holds at most the sum of their capacities"):
    // plus one element in hand where one boundary's fiber feeds the next
    assertAhead(
      measure(src => src().buffer(2).mapPar(2)(identity).buffer(3)),
      2 + 1 + 2 * 2 + 1 + 3,
      "buffer(2).mapPar(2).buffer(3)"
    )
