package weft.channels

import scala.util.{Failure, Success, Try}
import weft.*
import weft.testing.TimeTesting.awaitCondition
import weft.internal.channels.CellChannel

/**
 * Closing a channel with an error (`error(cause)`), for every kind: readers and senders fail
 * with a [[ChannelFailedException]] carrying the cause, buffered values are dropped, the first
 * close (done or error) decides, and the value-returning reads and sends report the reason.
 */
class ChannelErrorSuite extends munit.FunSuite, weft.testing.Deadlined:

  val boom = IllegalStateException("upstream failed")

  val kinds: List[(String, () => Channel[Int])] = List(
    "SyncChannel" -> (() => SyncChannel[Int]()),
    "BufferedChannel(1)" -> (() => BufferedChannel[Int](1)),
    "BufferedChannel(3)" -> (() => BufferedChannel[Int](3)),
    "UnboundedChannel" -> (() => UnboundedChannel[Int]())
  )

  /** Whether `t` is the failure of a channel closed with `boom`. */
  def failedWithBoom(t: Try[?]): Boolean = t match
    case Failure(e: ChannelFailedException) => e.getCause eq boom
    case _                                  => false

  def listening(ch: Channel[Int]): Boolean = ch.asInstanceOf[CellChannel[Int]].reads.watching

  for (name, make) <- kinds do
    test(s"$name: after error, send, trySend and sendOrClosed fail with the cause"):
      val ch = make()
      ch.error(boom)
      Async.blocking:
        val e = intercept[ChannelFailedException](ch.send(1))
        assert(e.getCause eq boom, s"cause: ${e.getCause}")
        assert(e.isInstanceOf[ChannelClosedException], "a failed channel is a closed channel")
        assert(Try(ch.trySend(1)).failed.toOption.exists(_.getCause eq boom))
        assertEquals(ch.sendOrClosed(1), ChannelClosed.Error(boom))

    test(s"$name: after error, read, tryRead, readOrClosed and canRead fail with the cause"):
      val ch = make()
      ch.error(boom)
      Async.blocking:
        assert(failedWithBoom(ch.read()))
        assert(ch.tryRead().exists(failedWithBoom))
        assertEquals(ch.readOrClosed(), ChannelClosed.Error(boom))
        assert(failedWithBoom(Async.await(ch.canRead)))

    test(s"$name: error wakes waiting readers (blocking, listener, select) with the cause"):
      val ch = make()
      Async.blocking:
        val blocking = Future(ch.read())
        val listener = Future(Async.await(ch.canRead.filter(_ => true)))
        val selecting = Future(Async.select(ch.canRead ~~> identity))
        awaitCondition("readers waiting")(listening(ch))
        Thread.sleep(20) // let the blocking reader and the select park too
        ch.error(boom)
        for f <- Seq(blocking, listener, selecting) do
          assert(failedWithBoom(f.await), s"got ${f.result}")
        assert(!listening(ch), "a reader's listener was left in the watch list")

  for (name, make) <- kinds.filterNot(_._1 == "UnboundedChannel") do
    test(s"$name: error wakes waiting senders (blocking and select) with the cause"):
      val ch = make()
      while ch.trySend(0) do () // fills the buffer (a rendezvous has none)
      Async.blocking:
        val blocking = Future(ch.send(0))
        val selecting = Future(Async.select(ch.sendSource(7) ~~> identity))
        Thread.sleep(20) // let both park
        ch.error(boom)
        assert(blocking.result.failed.toOption.exists(_.getCause eq boom), s"${blocking.result}")
        assert(failedWithBoom(selecting.await), s"got ${selecting.result}")

  for (name, make) <- kinds do
    test(s"$name: the first close decides: error after close does nothing, and vice versa"):
      val closedFirst = make()
      closedFirst.close()
      closedFirst.error(boom)
      val failedFirst = make()
      failedFirst.error(boom)
      failedFirst.close()
      Async.blocking:
        assertEquals(closedFirst.readOrClosed(), ChannelClosed.Done)
        assertEquals(closedFirst.sendOrClosed(1), ChannelClosed.Done)
        assertEquals(failedFirst.readOrClosed(), ChannelClosed.Error(boom))

    test(s"$name: readOrClosed and sendOrClosed return values and () while open"):
      val ch = make()
      Async.blocking:
        val sender = Future(ch.sendOrClosed(5))
        assertEquals(ch.readOrClosed(), 5)
        assertEquals(sender.await, ())

    test(s"$name: error(null) is rejected and leaves the channel open"):
      val ch = make()
      val e = intercept[IllegalArgumentException](ch.error(null))
      assert(e.getMessage.contains("cause"), e.getMessage)
      Async.blocking:
        Future(ch.send(1))
        assertEquals(ch.read(), Success(1))

  for (name, make) <- kinds.tail do
    test(s"$name: error drops the buffered values (close keeps them)"):
      val failing = make()
      val closing = make()
      Async.blocking:
        for ch <- Seq(failing, closing) do ch.send(1)
        failing.error(boom)
        closing.close()
        assert(failedWithBoom(failing.read()), "a buffered value was read after error")
        assertEquals(closing.read(), Success(1))
        assertEquals(closing.readOrClosed(), ChannelClosed.Done)

  test("ChannelClosed converts to and from the exceptions"):
    assertEquals(ChannelClosed.of(ChannelClosedException()), ChannelClosed.Done)
    assertEquals(ChannelClosed.of(ChannelFailedException(boom)), ChannelClosed.Error(boom))
    assertEquals(ChannelClosed.of(ChannelClosed.Error(boom).toException), ChannelClosed.Error(boom))
    assert(!ChannelClosed.Done.toException.isInstanceOf[ChannelFailedException])

  test("a rendezvous select parked in a cell fails with the cause, and the cell is not reused"):
    val a = SyncChannel[Int]()
    val b = SyncChannel[Int]()
    Async.blocking:
      val sel = Future(Async.select(a.canRead ~~> (r => ("a", r)), b.canRead ~~> (r => ("b", r))))
      Thread.sleep(20)
      a.error(boom)
      val (which, r) = sel.await
      assertEquals(which, "a")
      assert(failedWithBoom(r), s"got $r")
      assertEquals(b.trySend(1), false, "the losing case stayed parked in b's cell")
