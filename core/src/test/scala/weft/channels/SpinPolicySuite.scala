package weft.channels

import weft.*
import weft.internal.channels.{CellChannel, SpinPolicy}

/** The adaptive spin of rendezvous waiters: it stops when spinning does not pay. */
class SpinPolicySuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A rendezvous policy driven to a score of zero by spins that had to park anyway. */
  private def exhausted(): SpinPolicy =
    val p = SpinPolicy(rendezvous = true)
    var limit = p.nextLimit()
    while limit > 0 do
      p.record(limit, arrivedWhileSpinning = false)
      limit = p.nextLimit()
    p

  test("a buffered channel's waiters never spin"):
    val p = SpinPolicy(rendezvous = false)
    assert((1 to 64).forall(_ => p.nextLimit() == 0))

  test("a fresh rendezvous channel earns its spinning: only the 32nd waiter probes"):
    val p = SpinPolicy(rendezvous = true)
    val limits = (1 to 32).map(_ => p.nextLimit())
    assert(limits.take(31).forall(_ == 0), limits)
    assertEquals(limits.last, SpinPolicy.Spins)
    p.record(limits.last, arrivedWhileSpinning = true)
    assertEquals(p.nextLimit(), SpinPolicy.Spins)

  test("after spins that did not pay, a rendezvous waiter spins only as a probe, 1 in 32"):
    val p = exhausted()
    assertEquals((1 to 64).count(_ => p.nextLimit() > 0), 2)

  test("a spin that saw the partner arrive makes waiters spin again"):
    val p = exhausted()
    p.record(SpinPolicy.Spins, arrivedWhileSpinning = true)
    assert((1 to 64).forall(_ => p.nextLimit() > 0))

  test("a partner that arrived before the wait began is not scored as a spin win"):
    val p = exhausted()
    for _ <- 1 to 100 do p.beforePark(true)
    assertEquals((1 to 64).count(_ => p.nextLimit() > 0), 2)

  test("a select parked in a rendezvous cell spins as the channel's policy says, and scores it"):
    val ch = SyncChannel[Int]()
    val p = ch.asInstanceOf[CellChannel[Int]].spin
    p.record(SpinPolicy.Spins, arrivedWhileSpinning = true) // score: one win
    val never = Promise[Int]().future
    for i <- 1 to SpinPolicy.Win / SpinPolicy.Loss do
      var got: Any = null
      val t = Thread.ofVirtual().start: () =>
        got = Async.blocking(Async.select(ch.canRead ~~> (_.get), never ~~> identity))
      // Parked (WAITING) only after its spin: nobody sent during it, so it is scored a loss.
      while t.getState != Thread.State.WAITING do Thread.sleep(1)
      Async.blocking(ch.send(i))
      weft.testing.Waits.join(t, "the spinning thread")
      assertEquals(got, i)
    // Each select lost its spin: the score is back at zero, only probes spin.
    assertEquals((1 to 64).count(_ => p.nextLimit() > 0), 2)
