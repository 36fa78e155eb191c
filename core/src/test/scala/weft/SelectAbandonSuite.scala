package weft

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue}
import java.util.concurrent.atomic.{AtomicInteger, AtomicReference}
import scala.util.{Random, Success}
import weft.channels.{BufferedChannel, UnboundedChannel}
import weft.testing.{ControlledSource, InvariantChecks}

/**
 * A select whose caller is cancelled while it waits is abandoned: its shared lock is retired, so
 * no source can complete one of its cases after the caller has left (the value would be lost).
 * Forced by hand with a source that kept the case's listener, then stressed with channels under
 * random cancellation, where every value sent must be received exactly once.
 */
class SelectAbandonSuite extends munit.FunSuite, InvariantChecks:

  test("a source holding a case of an abandoned select can no longer complete it"):
    val src = ControlledSource[Int]()
    holdsWithin(10, "an abandoned select retires its lock"):
      Async.blocking:
        Async.group:
          val f = Future(Async.select(src ~~> identity))
          src.entered.await()
          f.cancel()
        // the group has joined the select's fiber: the select was abandoned
    val k = src.registered.peek()
    assertEquals(src.listeners.size, 0, "the abandoned select left its listener registered")
    assert(!k.completeNow(42, src), "a source completed a case of a select whose caller left")

  test("a select abandoned because its scope was cancelled raises a cancellation"):
    // Not an `InterruptedException`: the select's caller must see why it was stopped, as an
    // await does, so that code catching cancellations (and the scope's bookkeeping) treats it
    // as one.
    val src = ControlledSource[Int]()
    val raised = AtomicReference[Throwable]()
    holdsWithin(10, "a cancelled select raises"):
      Async.blocking:
        Async.group:
          val f = Future:
            try Async.select(src ~~> identity)
            catch
              case e: Throwable =>
                raised.set(e)
                throw e
          src.entered.await()
          f.cancel()
    assert(
      raised.get.isInstanceOf[CancellationException],
      s"the abandoned select raised ${raised.get}"
    )

  test("a select won during registration leaves no listener on the cases registered after"):
    val p = Promise[Int]()
    val late = ControlledSource[Int](gated = true)
    holdsWithin(10, "a select drops a listener registered after it fired"):
      Async.blocking:
        val f = Future(Async.select(p.future ~~> (_.get), late ~~> identity))
        late.entered.await() // case 0 is registered on p, case 1 about to be added to `late`
        p.success(1) // fires case 0 from this thread
        late.proceed.countDown()
        assertEquals(f.value, 1)
    assertEquals(late.registered.size, 1, "the listener was added after the select fired")
    assertEquals(late.listeners.size, 0, "the select left its listener on a source after firing")

  for seed <- 1 to 3 do
    test(s"selecting readers cancelled at random lose no value (seed $seed)"):
      holdsWithin(60, "a value taken by a select is received exactly once")(storm(seed))

  /**
   * Readers select over a buffered channel and an unbounded one (their cases wait in the
   * channels' watch lists) and are cancelled at random; a value is counted when its case fired.
   * At the end what is left in the channels is drained: sent = received + left, each once.
   */
  private def storm(seed: Int): Unit =
    val values = 4000
    val a = BufferedChannel[Int](4)
    val b = UnboundedChannel[Int]()
    val received = ConcurrentLinkedQueue[Int]()
    val cancels = AtomicInteger()
    Async.blocking:
      def reader()(using Async): Unit =
        while true do
          Async.select(a.canRead ~~> identity, b.canRead ~~> identity) match
            case Success(v) => received.add(v)
            case _          => return
      val producer = Future:
        for v <- 0 until values do if v % 2 == 0 then a.send(v) else b.send(v)
      val rnd = Random(seed)
      var readers = Vector.fill(4)(Future(reader()))
      // At least some cancels even if the producer is done first (a fast run on an idle core):
      // a reader parked in its select is then abandoned, which is the point of the storm.
      while !producer.poll().isDefined || cancels.get < 20 do
        Thread.sleep(0, rnd.nextInt(200_000))
        val i = rnd.nextInt(readers.length)
        readers(i).cancel()
        cancels.incrementAndGet()
        readers = readers.updated(i, Future(reader()))
      producer.await
      readers.foreach(_.cancel())
    // every reader has been joined: drain what no reader took
    a.close()
    b.close()
    Async.blocking:
      var going = true
      while going do
        Async.select(a.canRead ~~> identity, b.canRead ~~> identity) match
          case Success(v) => received.add(v)
          case _          => going = false
    val got = received.toArray.toVector.map(_.asInstanceOf[Int]).sorted
    assert(cancels.get > 0)
    assertEquals(got.distinct.length, got.length, "a value was received twice")
    assertEquals(got.length, values, s"values lost: ${values - got.length} ($cancels cancels)")
