package weft.channels

import java.util.concurrent.CancellationException
import scala.util.{Failure, Success, Try}
import weft.*
import weft.internal.channels.CellChannel

/**
 * Select cases parked in rendezvous cells (`SelectCells`): close, losing cases, cancellation, a
 * select reading and sending on one channel, and `canRead` after a send that close refused.
 */
class SelectCellSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("canRead does not wait forever after a send was refused by close"):
    // A refused `send` claims its cell before it sees the closed bit, so S counts a cell that
    // never gets a value; `canRead` used to spin on that cell for ever.
    val ch = SyncChannel[Int]()
    ch.close()
    Async.blocking:
      intercept[ChannelClosedException](ch.send(1))
      intercept[ChannelClosedException](ch.send(2))
      assert(ch.tryRead().exists(_.failed.get.isInstanceOf[ChannelClosedException]))
      assert(Async.await(ch.canRead).failed.get.isInstanceOf[ChannelClosedException])
      val r: Try[Int] =
        Async.select(ch.canRead ~~> identity, Promise[Int]().future ~~> (_ => Success(0)))
      assert(r.failed.get.isInstanceOf[ChannelClosedException])

  test("canRead after close and a refused send, buffered: drains, then fails"):
    val ch = BufferedChannel[Int](2)
    Async.blocking:
      ch.send(1)
      ch.close()
      intercept[ChannelClosedException](ch.send(2))
      assertEquals(ch.tryRead(), Some(Success(1)))
      assert(Async.await(ch.canRead).isFailure)

  test("close completes a select parked in rendezvous cells with the failure"):
    val a = SyncChannel[Int]()
    val b = SyncChannel[Int]()
    Async.blocking:
      val f = Future(Async.select(a.canRead ~~> identity, b.canRead ~~> identity))
      Thread.sleep(20)
      b.close()
      assert(f.await.failed.get.isInstanceOf[ChannelClosedException])
      // The case on `a` lost: a sender there is not taken by it.
      val s = Future(a.send(4))
      assertEquals(a.read(), Success(4))
      s.await

  test("a losing case's cell is broken; the sender meeting it keeps its value for the next reader"):
    val a = SyncChannel[Int]()
    val b = SyncChannel[Int]()
    Async.blocking:
      for i <- 1 to 50 do
        val f = Future(Async.select(a.canRead ~~> (("a", _)), b.canRead ~~> (("b", _))))
        Thread.sleep(if i % 10 == 0 then 5 else 0)
        a.send(i)
        assertEquals(f.await, ("a", Success(i)))
        val s = Future(b.send(-i))
        assertEquals(b.read(), Success(-i))
        s.await

  test("cancelling a select parked in cells leaves both channels consistent"):
    val a = SyncChannel[Int]()
    val b = SyncChannel[Int]()
    Async.blocking:
      for i <- 1 to 30 do
        // In a group: its end joins the cancelled select's thread, so the sends below cannot
        // meet a select that is still registering (it would take a value after `cancel`).
        val r = Async.group:
          val f = Future(Async.select(a.canRead ~~> (_.get), b.canRead ~~> (_.get)))
          Thread.sleep(if i % 3 == 0 then 2 else 0)
          f.cancel()
          f.result
        val sa = Future(a.send(i))
        val sb = Future(b.send(-i))
        r match
          case Success(v) => fail(s"no value was sent before the cancellation, got $v")
          case Failure(e) => assert(e.isInstanceOf[CancellationException])
        assertEquals(a.read(), Success(i))
        assertEquals(b.read(), Success(-i))
        sa.await
        sb.await

  test("a select reading and sending on one rendezvous channel (watch list path)"):
    val ch = SyncChannel[Int]()
    Async.blocking:
      val reader = Future(ch.read())
      val r = Async.select(ch.canRead ~~> (_ => "read"), ch.sendSource(5) ~~> (_ => "sent"))
      assertEquals(r, "sent")
      assertEquals(reader.await, Success(5))
      val sender = Future(ch.send(6))
      val r2 = Async.select(ch.canRead ~~> (v => s"read $v"), ch.sendSource(7) ~~> (_ => "sent"))
      assertEquals(r2, "read Success(6)")
      sender.await

  test("a select's own send parked at the head does not hide a value sent behind it"):
    // The select's send claims cell 0 first; the blocking send below claims cell 1. The select's
    // read cannot take its own send, so it must hand that send back and take 6. This used to
    // wait forever; bounded here so a regression fails instead of hanging.
    val ch = SyncChannel[Int]()
    val cells = ch.asInstanceOf[CellChannel[Int]]
    Async.blocking:
      for round <- 1 to 20 do
        val start = cells.senders
        val sel =
          Future(Async.select(ch.canRead ~~> (v => s"read $v"), ch.sendSource(7) ~~> (_ => "sent")))
        // Yielding: the select's fiber may need this carrier to make its claim.
        while CellChannel.count(cells.senders) == CellChannel.count(start) do Thread.`yield`()
        val sender = Future(ch.send(6))
        val got = withTimeoutOption(10_000)(sel.await)
        assertEquals(got, Some("read Success(6)"), s"round $round")
        sender.await
        // The select's send was dropped, not delivered later: nothing is left to read.
        assertEquals(ch.tryRead(), None)

  test("select-sends meet select-reads over two rendezvous channels, in both lock orders"):
    val a = SyncChannel[Int]()
    val b = SyncChannel[Int]()
    Async.blocking:
      val n = 2000
      val rd = Future:
        (1 to n).map(_ => Async.select(a.canRead ~~> (_.get), b.canRead ~~> (_.get))).sum
      val sends = (0 until 2).map: k =>
        Future:
          for i <- 1 to n / 2 do
            val v = k * (n / 2) + i
            Async.select(a.sendSource(v) ~~> (_ => ()), b.sendSource(v) ~~> (_ => ()))
      sends.foreach(_.await)
      assertEquals(rd.await, (1 to n).sum)
