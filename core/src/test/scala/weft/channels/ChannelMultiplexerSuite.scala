package weft.channels

import scala.util.{Failure, Success, Try}
import weft.*
import weft.testing.TimeTesting

/** Seed 002, "ChannelMultiplexer", sentence by sentence. */
class ChannelMultiplexerSuite extends munit.FunSuite, weft.testing.Deadlined:

  def drain(c: ReadableChannel[Try[Int]], n: Int)(using Async): List[Int] =
    (1 to n).map(_ => c.read().get.get).toList

  test("every subscriber receives exactly all values sent by the publishers, in one order"):
    Async.blocking:
      val mux = ChannelMultiplexer[Int]()
      val p1 = SyncChannel[Int]()
      val p2 = BufferedChannel[Int](4)
      val subs = List(
        UnboundedChannel[Try[Int]](),
        UnboundedChannel[Try[Int]](),
        BufferedChannel[Try[Int]](2)
      )
      mux.addPublisher(p1); mux.addPublisher(p2)
      subs.foreach(mux.addSubscriber)
      val runner = Future(mux.run())
      val readers = subs.map(s => Future(drain(s, 400)))
      val s1 = Future(for i <- 0 until 200 do p1.send(i))
      val s2 = Future(for i <- 1000 until 1200 do p2.send(i))
      s1.await; s2.await
      val got = readers.map(_.await)
      assert(got.forall(_ == got.head), "subscribers saw different sequences")
      assertEquals(got.head.sorted, ((0 until 200) ++ (1000 until 1200)).toList)
      assertEquals(got.head.filter(_ < 1000), (0 until 200).toList)
      assertEquals(got.head.filter(_ >= 1000), (1000 until 1200).toList)
      mux.close()
      runner.await

  test("close sends Failure(ChannelClosedException) to subscribers, closes no channel"):
    Async.blocking:
      val mux = ChannelMultiplexer[Int]()
      val pub = BufferedChannel[Int](1)
      val sub = UnboundedChannel[Try[Int]]()
      mux.addPublisher(pub); mux.addSubscriber(sub)
      val runner = Future(mux.run())
      pub.send(1)
      assertEquals(sub.read(), Success(Success(1)))
      mux.close()
      runner.await
      sub.read() match
        case Success(Failure(_: ChannelClosedException)) => ()
        case other                                       => fail(s"got $other")
      pub.send(2) // the publisher is still open
      assertEquals(pub.read(), Success(2))
      sub.send(Success(3)) // the subscriber too
      assertEquals(sub.read(), Success(Success(3)))

  test("read().flatten reads a subscriber as a plain channel: values, then the end"):
    Async.blocking:
      val mux = ChannelMultiplexer[Int]()
      val pub = BufferedChannel[Int](1)
      val endedByMux = UnboundedChannel[Try[Int]]()
      val endedByItsOwner = UnboundedChannel[Try[Int]]()
      mux.addPublisher(pub); mux.addSubscriber(endedByMux); mux.addSubscriber(endedByItsOwner)
      val runner = Future(mux.run())
      for i <- 1 to 3 do pub.send(i)
      def loop(c: ReadableChannel[Try[Int]]) =
        Iterator.continually(c.read().flatten).takeWhile(_.isSuccess).map(_.get).toList
      val viaMux = Future(loop(endedByMux))
      assertEquals((1 to 3).map(_ => endedByItsOwner.read().flatten), (1 to 3).map(Success(_)))
      endedByItsOwner.close()
      assertEquals(loop(endedByItsOwner), Nil) // its own close: Failure(ChannelClosedException)
      mux.close()
      runner.await
      assertEquals(viaMux.await, List(1, 2, 3)) // the multiplexer's close ended the loop

  // The subscriber is a rendezvous channel that nobody reads: delivering to it never ends.
  test("close ends run while it is delivering to a subscriber that never reads"):
    Async.blocking:
      val mux = ChannelMultiplexer[Int]()
      val pub = SyncChannel[Int]()
      val stuck = SyncChannel[Try[Int]]()
      val fine = UnboundedChannel[Try[Int]]()
      mux.addPublisher(pub); mux.addSubscriber(stuck); mux.addSubscriber(fine)
      val runner = Future(mux.run())
      pub.send(1) // taken by the multiplexer, which now delivers it to `stuck`
      mux.close()
      weft.testing.TimeTesting.awaitCondition("run() ended after close()", 10_000)(
        runner.poll().isDefined
      )
      assertEquals(runner.poll(), Some(Success(())))
      assertEquals(stuck.tryRead(), None, "nothing is left half-sent on the stuck subscriber")
      fine.tryRead() match
        case Some(Success(Failure(_: ChannelClosedException))) => ()
        case other => fail(s"the subscriber that reads missed the close: $other")

  test("publishers and subscribers can be added and removed while running"):
    Async.blocking:
      val mux = ChannelMultiplexer[Int]()
      val runner = Future(mux.run())
      val pub = SyncChannel[Int]()
      val a = UnboundedChannel[Try[Int]]()
      val b = UnboundedChannel[Try[Int]]()
      mux.addSubscriber(a)
      mux.addPublisher(pub)
      pub.send(1)
      assertEquals(a.read(), Success(Success(1)))
      mux.addSubscriber(b)
      mux.removeSubscriber(a)
      pub.send(2)
      assertEquals(b.read(), Success(Success(2)))
      mux.removePublisher(pub)
      Thread.sleep(20)
      val late = Future(pub.send(3))
      Thread.sleep(30)
      assert(late.poll().isEmpty, "a removed publisher is still read")
      assertEquals(pub.read(), Success(3))
      late.await
      assertEquals(a.tryRead(), None)
      mux.close()
      runner.await

  test("a publisher closed with an error: subscribers get the error; the others go on"):
    Async.blocking:
      val mux = ChannelMultiplexer[Int]()
      val failing = BufferedChannel[Int](1)
      val closing = BufferedChannel[Int](1)
      val healthy = BufferedChannel[Int](1)
      val sub = UnboundedChannel[Try[Int]]()
      mux.addPublisher(failing); mux.addPublisher(closing); mux.addPublisher(healthy)
      mux.addSubscriber(sub)
      val runner = Future(mux.run())
      val boom = IllegalStateException("boom")
      failing.error(boom)
      sub.read() match
        case Success(Failure(e: ChannelFailedException)) => assertEquals(e.getCause, boom)
        case other                                       => fail(s"got $other")
      closing.close() // a plain close is not forwarded
      healthy.send(7)
      assertEquals(sub.read(), Success(Success(7)))
      mux.close()
      runner.await
