package weft.channels

import java.util.concurrent.CancellationException
import scala.util.{Success, Try}
import weft.*

/** Channels as sources: select over reads, sends and futures; losers consume nothing. */
class ChannelSelectSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("select between two channel reads takes the ready one; the other keeps its values"):
    val a = BufferedChannel[Int](2)
    val b = BufferedChannel[Int](2)
    Async.blocking:
      b.send(2)
      val r = Async.select(a.canRead ~~> (v => ("a", v)), b.canRead ~~> (v => ("b", v)))
      assertEquals(r, ("b", Success(2)))
      a.send(1)
      assertEquals(a.read(), Success(1))

  test("a read losing a select to a future does not consume the channel's value"):
    val ch = SyncChannel[Int]()
    Async.blocking:
      val sender = Future(ch.send(42))
      Thread.sleep(20)
      val r = Async.select(Future.now(Success(1)) ~~> (_ => "future"), ch.canRead ~~> (_ => "ch"))
      assert(r == "future" || r == "ch")
      if r == "future" then assertEquals(ch.read(), Success(42))
      sender.await

  test("select can send: the send case fires when a reader comes"):
    val ch = SyncChannel[Int]()
    Async.blocking:
      val reader = Future { Thread.sleep(30); ch.read() }
      val never = Promise[Int]()
      val r = Async.select(ch.sendSource(7) ~~> (_ => "sent"), never.future ~~> (_ => "never"))
      assertEquals(r, "sent")
      assertEquals(reader.await, Success(7))

  test("a send losing a select sends nothing"):
    val ch = SyncChannel[Int]()
    Async.blocking:
      val r =
        Async.select(ch.sendSource(1) ~~> (_ => "sent"), Future.now(Success(0)) ~~> (_ => "f"))
      assertEquals(r, "f")
      val late = Future(ch.read())
      Thread.sleep(30)
      assert(late.poll().isEmpty, "a losing send case delivered its value")
      ch.send(2)
      assertEquals(late.await, Success(2))

  test("a select-send meets a select-read on a rendezvous channel"):
    val ch = SyncChannel[Int]()
    Async.blocking:
      val n = 200
      val never = Promise[Int]().future
      val rd = Future:
        (1 to n).map(_ => Async.select(ch.canRead ~~> (_.get), never ~~> (_ => -1)))
      for i <- 1 to n do Async.select(ch.sendSource(i) ~~> (_ => ()), never ~~> (_ => ()))
      assertEquals(rd.await.toList, (1 to n).toList)

  test("select racing a read against a send on two channels: exactly one fires"):
    val in = BufferedChannel[Int](1)
    val out = BufferedChannel[Int](1)
    Async.blocking:
      out.send(0) // full: the send case must wait
      in.send(5)
      val r = Async.select(in.canRead ~~> (v => s"read $v"), out.sendSource(9) ~~> (_ => "sent"))
      assertEquals(r, "read Success(5)")
      assertEquals(out.read(), Success(0))
      assertEquals(out.tryRead(), None)

  test("a filtered read declines without consuming; the declined value stays for others"):
    val ch = UnboundedChannel[Int]()
    Async.blocking:
      val evens = Future(Async.await(ch.canRead.filter(_.toOption.exists(_ % 2 == 0))))
      Thread.sleep(20)
      ch.send(1)
      Thread.sleep(20)
      assert(evens.poll().isEmpty)
      assertEquals(ch.read(), Success(1))
      ch.send(2)
      assertEquals(evens.await, Success(2))

  test("cancelling a future blocked in a select read leaves the value for the next reader"):
    val ch = SyncChannel[Int]()
    Async.blocking:
      val never = Promise[Int]().future
      val f = Future(Async.select(ch.canRead ~~> (_.get), never ~~> (_ => -1)))
      Thread.sleep(20)
      f.cancel()
      assert(f.result.failed.get.isInstanceOf[CancellationException])
      val s = Future(ch.send(3))
      assertEquals(ch.read(), Success(3))
      s.await

  test("cancelling a blocked send: the value is not delivered"):
    val ch = SyncChannel[Int]()
    Async.blocking:
      val f = Future(ch.send(1))
      Thread.sleep(20)
      f.cancel()
      assert(f.result.isFailure)
      Thread.sleep(20)
      val s = Future(ch.send(2))
      assertEquals(ch.read(), Success(2))
      s.await

  test("cancelling a blocked read: a later value goes to the next reader"):
    val ch = UnboundedChannel[Int]()
    Async.blocking:
      val f = Future(ch.read())
      Thread.sleep(20)
      f.cancel()
      assert(f.result.isFailure)
      Thread.sleep(20)
      ch.send(8)
      assertEquals(ch.read(), Success(8))

  test("select over a closed channel offers the failure"):
    val ch = SyncChannel[Int]()
    ch.close()
    Async.blocking:
      val r: Try[Int] = Async.select(ch.canRead ~~> identity)
      assert(r.failed.get.isInstanceOf[ChannelClosedException])
      val s: Try[Unit] = Async.select(ch.sendSource(1) ~~> identity)
      assert(s.failed.get.isInstanceOf[ChannelClosedException])

  /**
   * 300 rounds: `waiter` starts a future blocked on reading a fresh channel (half the rounds
   * parked, half still on its way), which is cancelled; a value sent right after must reach the
   * next reader, not the cancelled future.
   */
  def sentAfterCancelReachesNextReader(waiter: SyncChannel[Int] => Async ?=> Future[?]): Unit =
    Async.blocking:
      for round <- 1 to 300 do
        val ch = SyncChannel[Int]()
        val f = waiter(ch)
        if round % 2 == 0 then Thread.sleep(1)
        f.cancel()
        val s = Future(ch.send(round))
        val got = withTimeoutOption(5_000)(ch.read())
        assertEquals(got, Some(Success(round)), s"round $round: the cancelled future took it")
        s.await

  test("a value sent right after a select's future is cancelled goes to the next reader"):
    sentAfterCancelReachesNextReader: ch =>
      val never = Promise[Int]().future
      Future(Async.select(ch.canRead ~~> (_.get), never ~~> (_ => -1)))

  test("a value sent right after a blocked read's future is cancelled goes to the next reader"):
    sentAfterCancelReachesNextReader(ch => Future(ch.read()))
