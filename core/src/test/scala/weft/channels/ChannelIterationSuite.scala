package weft.channels

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.CancellationException
import scala.jdk.CollectionConverters.*
import scala.util.{Failure, Success}
import weft.*
import weft.testing.TimeTesting.awaitCondition
import weft.internal.channels.CellChannel

/**
 * Iterating over a channel (`foreach`, `for`, `drain`, `toList`, `iterator`): every value in
 * order, an end on close, the failure rethrown after error, and nothing left behind by a
 * cancelled iteration.
 */
class ChannelIterationSuite extends munit.FunSuite, weft.testing.Deadlined:

  val boom = IllegalStateException("upstream failed")

  val kinds: List[(String, () => Channel[Int])] = List(
    "SyncChannel" -> (() => SyncChannel[Int]()),
    "BufferedChannel(2)" -> (() => BufferedChannel[Int](2)),
    "UnboundedChannel" -> (() => UnboundedChannel[Int]())
  )

  /** Sends 1 to `n` on `ch` in a future, then closes it (or fails it with `boom`). */
  def produce(ch: Channel[Int], n: Int, fail: Boolean = false)(using Async): Future[Unit] =
    Future:
      for i <- 1 to n do ch.send(i)
      if fail then ch.error(boom) else ch.close()

  for (name, make) <- kinds do
    test(s"$name: foreach and for see every value in order, and end on close"):
      val a = make()
      val b = make()
      Async.blocking:
        produce(a, 50)
        produce(b, 50)
        val seen = List.newBuilder[Int]
        a.foreach(seen += _)
        var sum = 0
        for v <- b do sum += v
        assertEquals(seen.result(), (1 to 50).toList)
        assertEquals(sum, (1 to 50).sum)

    test(s"$name: toList, drain and iterator end on close"):
      val (a, b, c) = (make(), make(), make())
      Async.blocking:
        produce(a, 20)
        produce(b, 20)
        produce(c, 20)
        assertEquals(a.toList(), (1 to 20).toList)
        b.drain()
        assertEquals(b.readOrClosed(), ChannelClosed.Done)
        val it = c.iterator
        assertEquals(it.toList, (1 to 20).toList)
        assert(!it.hasNext)
        intercept[NoSuchElementException](it.next())

    test(s"$name: after error, foreach gives the values sent before it, then rethrows"):
      val ch = SyncChannel[Int]() // rendezvous: every value is taken before the error
      Async.blocking:
        produce(ch, 10, fail = true)
        val seen = List.newBuilder[Int]
        val e = intercept[ChannelFailedException](ch.foreach(seen += _))
        assert(e.getCause eq boom)
        assertEquals(seen.result(), (1 to 10).toList)

    test(s"$name: toList, drain and iterator rethrow an error close"):
      val (a, b, c) = (make(), make(), make())
      Async.blocking:
        for ch <- Seq(a, b, c) do produce(ch, 3, fail = true)
        assert(intercept[ChannelFailedException](a.toList()).getCause eq boom)
        assert(intercept[ChannelFailedException](b.drain()).getCause eq boom)
        assert(intercept[ChannelFailedException](c.iterator.toList).getCause eq boom)

    test(s"$name: a cancelled iteration stops and leaves no reader behind"):
      val ch = make()
      val seen = ConcurrentLinkedQueue[Int]()
      Async.blocking:
        // The group's end cancels the iteration and waits until its fiber has left.
        val it = Async.group:
          val it = Future(ch.foreach(seen.add(_): Unit))
          ch.send(1)
          awaitCondition("the first value was seen")(seen.size == 1)
          Thread.sleep(20) // let the iteration wait for the next value
          it
        assert(it.result.failed.toOption.exists(_.isInstanceOf[CancellationException]))
        // Nothing waits for values any more: a rendezvous send finds no reader, a buffered value
        // stays for the next reader.
        assert(!ch.asInstanceOf[CellChannel[Int]].reads.watching, "a listener was left")
        val sent = ch.trySend(2)
        if name == "SyncChannel" then assertEquals(sent, false, "a cancelled reader took 2")
        else assertEquals(ch.tryRead(), Some(Success(2)), "a cancelled reader took 2")
        assertEquals(seen.asScala.toList, List(1))

  test("foreach stops on the first exception of its function, leaving later values"):
    val ch = UnboundedChannel[Int]()
    Async.blocking:
      for i <- 1 to 3 do ch.send(i)
      intercept[ArithmeticException](ch.foreach(v => if v == 2 then throw ArithmeticException()))
      assertEquals(ch.tryRead(), Some(Success(3)))
      ch.close()
      assertEquals(ch.tryRead().map(_.isFailure), Some(true))
