package weft.channels

import java.util.concurrent.atomic.AtomicBoolean
import scala.util.{Failure, Success}
import weft.*
import weft.testing.Waits
import weft.testing.TimeTesting.awaitCondition

/** Seed 002, "Channel Semantics", sentence by sentence, for every channel kind. */
class ChannelSemanticsSuite extends munit.FunSuite, weft.testing.Deadlined:

  val kinds: List[(String, () => Channel[Int])] = List(
    "SyncChannel" -> (() => SyncChannel[Int]()),
    "BufferedChannel(1)" -> (() => BufferedChannel[Int](1)),
    "BufferedChannel(3)" -> (() => BufferedChannel[Int](3)),
    "UnboundedChannel" -> (() => UnboundedChannel[Int]())
  )

  for (name, make) <- kinds do
    test(s"$name: one can write (send) to a channel and read what was sent"):
      val ch = make()
      Async.blocking:
        val f = Future(for i <- 1 to 100 do ch.send(i))
        val got = (1 to 100).map(_ => ch.read().get)
        f.await
        assertEquals(got.toList, (1 to 100).toList)

    test(s"$name: a closed channel raises ChannelClosedException on send"):
      val ch = make()
      ch.close()
      Async.blocking(intercept[ChannelClosedException](ch.send(1)))

    test(s"$name: a closed empty channel returns Failure(ChannelClosedException) at once"):
      val ch = make()
      ch.close()
      Async.blocking:
        ch.read() match
          case Failure(_: ChannelClosedException) => ()
          case other                              => fail(s"got $other")
        assert(ch.canRead.poll().exists(_.isFailure))

    test(s"$name: close wakes every waiting reader"):
      val ch = make()
      Async.blocking:
        val readers = (1 to 3).map(_ => Future(ch.read()))
        Thread.sleep(50)
        ch.close()
        readers.foreach(r => assert(r.await.failed.get.isInstanceOf[ChannelClosedException]))

    test(s"$name: close wakes a waiting sender with ChannelClosedException"):
      val ch = make()
      Async.blocking:
        val s = Future(while true do ch.send(0))
        Thread.sleep(50)
        ch.close()
        assert(s.result.failed.get.isInstanceOf[ChannelClosedException])

    test(s"$name: split into sendable, readable and closeable references"):
      val ch = make()
      val tx: SendableChannel[Int] = ch.asSendable()
      val rx: ReadableChannel[Int] = ch.asReadable()
      val c: java.io.Closeable = ch.asCloseable()
      Async.blocking:
        val f = Future(tx.send(7))
        assertEquals(rx.read(), Success(7))
        f.await
        c.close()
        assert(rx.read().isFailure)

    test(s"$name: each sent value is delivered to exactly one of many readers"):
      val ch = make()
      val n = 2000
      Async.blocking:
        val readers = (1 to 4).map: _ =>
          Future:
            val b = List.newBuilder[Int]
            var r = ch.read()
            while r.isSuccess do
              b += r.get
              r = ch.read()
            b.result()
        val senders = (0 until 4).map(k => Future(for i <- 0 until n do ch.send(k * n + i)))
        senders.foreach(_.await)
        ch.close()
        val all = readers.flatMap(_.await)
        assertEquals(all.sorted, (0 until 4 * n).toVector)

    test(s"$name: values of one sender arrive in order (FIFO per sender)"):
      val ch = make()
      Async.blocking:
        val s1 = Future(for i <- 0 until 500 do ch.send(i))
        val s2 = Future(for i <- 0 until 500 do ch.send(1000 + i))
        val got = (1 to 1000).map(_ => ch.read().get)
        s1.await; s2.await
        assertEquals(got.filter(_ < 1000).toList, (0 until 500).toList)
        assertEquals(got.filter(_ >= 1000).toList, (1000 until 1500).toList)

  test("SyncChannel: send blocks until a reader takes the value"):
    val ch = SyncChannel[Int]()
    val sent = AtomicBoolean()
    Async.blocking:
      val s = Future { ch.send(1); sent.set(true) }
      Thread.sleep(50)
      assert(!sent.get, "send returned without a reader")
      assertEquals(ch.read(), Success(1))
      s.await
      assert(sent.get)

  test("SyncChannel: a reader that declines the value does not take it; the sender waits on"):
    val ch = SyncChannel[Int]()
    Async.blocking:
      val s = Future(ch.send(5))
      Thread.sleep(20)
      assertEquals(ch.canRead.filter(_ != Success(5)).poll(), None)
      assert(s.poll().isEmpty, "the sender was released by a declining reader")
      assertEquals(ch.read(), Success(5))
      s.await

  test("BufferedChannel: send returns at once while the buffer is not full"):
    val ch = BufferedChannel[Int](3)
    Async.blocking:
      ch.send(1); ch.send(2); ch.send(3)
      assertEquals((1 to 3).map(_ => ch.read().get).toList, List(1, 2, 3))

  test("BufferedChannel: send on a full buffer waits until a slot is freed"):
    val ch = BufferedChannel[Int](2)
    val fourth = AtomicBoolean()
    Async.blocking:
      ch.send(1); ch.send(2)
      val s = Future { ch.send(3); fourth.set(true) }
      Thread.sleep(50)
      assert(!fourth.get, "send on a full buffer returned")
      assertEquals(ch.read(), Success(1))
      Waits.within(s, "the send on a full buffer, after a read freed a slot")
      assert(fourth.get)
      assertEquals(ch.read(), Success(2))
      assertEquals(ch.read(), Success(3))

  test("BufferedChannel: readers see only the first entry; declined, it stays for others"):
    val ch = BufferedChannel[Int](4)
    Async.blocking:
      ch.send(1); ch.send(2)
      val choosy = Future(Async.await(ch.canRead.filter(_ == Success(2))))
      Thread.sleep(50)
      assert(choosy.poll().isEmpty, "a reader sampled past the first entry")
      assertEquals(ch.read(), Success(1))
      assertEquals(choosy.await, Success(2))
      ch.send(3)
      assertEquals(ch.read(), Success(3))

  test("BufferedChannel: sizes below 1 are rejected with a clear error"):
    val e = intercept[IllegalArgumentException](BufferedChannel[Int](0))
    assert(e.getMessage.contains("size must be >= 1"), e.getMessage)
    intercept[IllegalArgumentException](BufferedChannel[Int](-3))

  test("UnboundedChannel: send never blocks"):
    val ch = UnboundedChannel[Int]()
    Async.blocking:
      for i <- 0 until 10000 do ch.send(i)
      assertEquals((0 until 10000).map(_ => ch.read().get), (0 until 10000).toVector)

  test("after close, read drains the buffered values first, then fails"):
    for ch <- List(BufferedChannel[Int](5), UnboundedChannel[Int]()) do
      Async.blocking:
        ch.send(1); ch.send(2)
        ch.close()
        intercept[ChannelClosedException](ch.send(3))
        assertEquals(ch.read(), Success(1))
        assertEquals(ch.canRead.poll(), Some(Success(2)))
        assert(ch.read().failed.get.isInstanceOf[ChannelClosedException])

  test("trySend and tryRead never wait"):
    val ch = BufferedChannel[Int](1)
    assert(ch.trySend(1))
    assert(!ch.trySend(2))
    assertEquals(ch.tryRead(), Some(Success(1)))
    assertEquals(ch.tryRead(), None)

  test("SyncChannel: trySend skips the cell a cancelled reader left for the reader behind"):
    // The cancelled reader breaks its cell, and S still points at it: the send's poll must
    // claim past the broken cell to the next reader's, not look at the same cell forever.
    val ch = SyncChannel[Int]()
    val cells = ch.asInstanceOf[weft.internal.channels.CellChannel[Int]]
    Async.blocking:
      Async.group:
        val gone = Future(ch.read())
        awaitCondition("the first reader claimed its cell")(cells.receivers == 1)
        gone.cancel()
      val reader = Future(ch.read())
      awaitCondition("the second reader claimed its cell")(cells.receivers == 2)
      awaitCondition("trySend reached the waiting reader")(ch.trySend(7))
      assertEquals(Waits.within(reader, "the reader behind the broken cell"), Success(7))

  test("null values are carried"):
    val ch = BufferedChannel[String](2)
    Async.blocking:
      ch.send(null)
      assertEquals(ch.read(), Success(null))
