package weft.guide

import scala.util.{Failure, Success, Try}
import weft.*
import weft.channels.*

/** The examples of docs/guide/channels.md, run. */
class ChannelsGuideSuite extends munit.FunSuite, weft.testing.Deadlined:

  test("channels: producer, workers, aggregator"):
    // example: channels-pipeline
    val total = Async.blocking:
      val jobs = BufferedChannel[Int](16)
      val results = UnboundedChannel[Int]()
      val producer = Future:
        for i <- 1 to 100 do jobs.send(i)
        jobs.close() // readers drain what is buffered, then read the close
      val workers = (1 to 4).map: _ =>
        Future:
          var more = true
          while more do
            jobs.read() match
              case Success(n) => results.send(n * n)
              case Failure(_) => more = false // ChannelClosedException: no more jobs
      val closer = Future: // closes results once every worker is done
        workers.foreach(_.await)
        results.close()
      var sum = 0 // the aggregator
      var more = true
      while more do
        results.read() match
          case Success(square) => sum += square
          case Failure(_)      => more = false
      sum // 338350
    // end
    assertEquals(total, (1 to 100).map(i => i * i).sum)

  test("channels: a rendezvous"):
    // example: channels-sync
    val (got, sent) = Async.blocking:
      val ch = SyncChannel[String]()
      val sender = Future(ch.send("ping")) // waits until a reader takes the value
      val got = ch.read() // Success(ping)
      (got, sender.result) // the send has returned: Success(())
    // end
    assertEquals(got, Success("ping"))
    assertEquals(sent, Success(()))

  test("channels: close"):
    // example: channels-close
    val (first, afterClose, sendAfterClose) = Async.blocking:
      val ch = BufferedChannel[Int](2)
      ch.send(1)
      ch.close()
      val first = ch.read() // Success(1): buffered values are still read
      val afterClose = ch.read() // Failure(ChannelClosedException)
      val sendAfterClose = Try(ch.send(2)) // Failure(ChannelClosedException)
      (first, afterClose, sendAfterClose)
    // end
    assertEquals(first, Success(1))
    assert(afterClose.failed.toOption.exists(_.isInstanceOf[ChannelClosedException]))
    assert(sendAfterClose.failed.toOption.exists(_.isInstanceOf[ChannelClosedException]))

  test("channels: select over a read and a send"):
    // example: channels-select
    val (outcome, left) = Async.blocking:
      val inbox = UnboundedChannel[String]()
      val outbox = BufferedChannel[String](1)
      inbox.send("hello")
      outbox.send("pending") // outbox is now full
      val outcome = Async.select(
        inbox.canRead ~~> (m => s"read ${m.get}"),
        outbox.sendSource("reply") ~~> (_ => "sent reply")
      ) // "read hello": the send lost, so "reply" was not sent
      (outcome, Seq(outbox.tryRead(), outbox.tryRead())) // Some(Success(pending)), None
    // end
    assertEquals(outcome, "read hello")
    assertEquals(left, Seq(Some(Success("pending")), None))

  test("channels: a multiplexer"):
    // example: channels-multiplexer
    val copies = Async.blocking:
      val mux = ChannelMultiplexer[String]()
      val news = UnboundedChannel[String]()
      val alice = UnboundedChannel[Try[String]]()
      val bob = UnboundedChannel[Try[String]]()
      mux.addPublisher(news)
      mux.addSubscriber(alice)
      mux.addSubscriber(bob)
      val copying = Future(mux.run()) // until mux.close() or the scope's end
      news.send("weft 0.1 is out")
      val copies = (alice.read().flatten, bob.read().flatten) // each gets its own copy
      mux.close()
      copies
    // end
    assertEquals(copies, (Success("weft 0.1 is out"), Success("weft 0.1 is out")))

  test("channels: error versus done, as values"):
    // example: channels-error
    val outcome = Async.blocking:
      val lines = SyncChannel[String]() // each send returns once the value is read
      val producer = Future:
        try
          for l <- Seq("1", "2", "x", "4") do lines.send(l.toInt.toString)
          lines.close()
        catch case e: NumberFormatException => lines.error(e) // upstream failed
      var got = Vector.empty[String]
      var reason: ChannelClosed | Null = null
      while reason == null do
        lines.readOrClosed() match
          case c: ChannelClosed => reason = c
          case l: String        => got :+= l
      (got, reason) // (Vector(1, 2), Error(java.lang.NumberFormatException: For input string: "x"))
    // end
    val (got, reason) = outcome
    assertEquals(got, Vector("1", "2"))
    reason match
      case ChannelClosed.Error(e: NumberFormatException) => ()
      case other                                         => fail(s"got $other")

  test("channels: iterating until close, and an error close"):
    // example: channels-iterate
    val (squares, failure) = Async.blocking:
      val numbers = SyncChannel[Int]()
      val producer = Future:
        for i <- 1 to 4 do numbers.send(i)
        numbers.close()
      val squares = numbers.toList().map(n => n * n) // List(1, 4, 9, 16)
      val broken = UnboundedChannel[Int]()
      broken.send(1)
      broken.error(IllegalStateException("disk full"))
      val failure = Try(broken.toList()) // the buffered 1 is dropped
      (squares, failure) // Failure(ChannelFailedException(disk full))
    // end
    assertEquals(squares, List(1, 4, 9, 16))
    assert(failure.failed.toOption.exists(_.getCause.getMessage == "disk full"), s"$failure")
