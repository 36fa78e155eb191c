package weft.channels

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import scala.jdk.CollectionConverters.*
import scala.util.{Random, Success}
import weft.*
import weft.testing.StressChecks

/**
 * Several producers and consumers on each kind, with random cancellation of blocked senders and
 * readers and selects racing reads against sends: every value whose send reported success is
 * received exactly once, and nothing else is received. Bounded by count (the whole suite moves
 * about two million values).
 */
class ChannelStressSuite extends munit.FunSuite, StressChecks:
  override val munitTimeout = scala.concurrent.duration.Duration(120, "s")

  val kinds: List[(String, () => Channel[Int])] = List(
    "SyncChannel" -> (() => SyncChannel[Int]()),
    "BufferedChannel(1)" -> (() => BufferedChannel[Int](1)),
    "BufferedChannel(16)" -> (() => BufferedChannel[Int](16)),
    "UnboundedChannel" -> (() => UnboundedChannel[Int]())
  )

  for (name, make) <- kinds do
    test(s"$name: plain producers and consumers, 4 x 4, 500k values"):
      val ch = make()
      val perProducer = 125000
      val received = ConcurrentLinkedQueue[Int]()
      Async.blocking:
        val consumers = (1 to 4).map: _ =>
          Future:
            var r = ch.read()
            while r.isSuccess do
              received.add(r.get)
              r = ch.read()
        val producers =
          (0 until 4).map(p => Future(for i <- 0 until perProducer do ch.send(p * perProducer + i)))
        producers.foreach(_.await)
        ch.close()
        consumers.foreach(_.await)
      assertEquals(received.asScala.toVector.sorted, (0 until 4 * perProducer).toVector)

    // This scenario hung a few times in CI before the changes of a4d42b9 (root cause not
    // identified). Since then it passed about 3,700 times in long-lived
    // JVMs and in fresh ones; `withinDeadline` turns a hang into a failure with the threads'
    // stacks rather than a stuck CI.
    test(s"$name: cancellation and selects, every delivered value received exactly once"):
      withinDeadline(90, "channel-stress-"):
        cancellationAndSelects(make)

    // A blocking reader cancelled between a sender's check of its cancellation and the hand-over
    // still returns the value from read() (ADR 0023); a reader's body records what read()
    // returned, so a value lost there or handed twice breaks the count. `CancelledReaderSuite`
    // opens that window deterministically; this storm hits it by chance, for every sender kind.
    test(s"$name: blocking readers cancelled as values reach them, every value received once"):
      withinDeadline(90, "channel-cancelled-readers-"):
        cancelledBlockingReaders(make)

  def cancelledBlockingReaders(make: () => Channel[Int]): Unit =
    val ch = make()
    val delivered = ConcurrentLinkedQueue[Int]()
    val received = ConcurrentLinkedQueue[Int]()
    val next = AtomicInteger()
    val perSender = 1500
    val sendersDone = AtomicInteger()
    Async.blocking:
      def readAll()(using Async): Unit =
        var r = ch.read()
        while r.isSuccess do
          received.add(r.get)
          r = ch.read()
      // senders: blocking sends, send-source awaits (a listener's poll and registration, which
      // hand over to parked readers too) and trySends
      val senders = (0 until 3).map: kind =>
        Future:
          for _ <- 0 until perSender do
            val v = next.getAndIncrement()
            val sent = kind match
              case 0 =>
                ch.send(v)
                true
              case 1 => Async.await(ch.sendSource(v)).isSuccess
              case _ => ch.trySend(v)
            if sent then delivered.add(v)
          sendersDone.incrementAndGet(): Unit
      val steady = Future(readAll())
      val rnd = Random(11)
      while sendersDone.get() < senders.length do
        val victims = (1 to 4).map(_ => Future(readAll()))
        var spins = rnd.nextInt(2000)
        while spins > 0 do
          Thread.onSpinWait()
          spins -= 1
        victims.foreach(_.cancel())
      senders.foreach(_.await)
      ch.close()
      steady.await
    assertExactlyOnce(received, delivered)

  def cancellationAndSelects(make: () => Channel[Int]): Unit =
    val ch = make()
    val side = BufferedChannel[Int](1) // a select partner: reads race sends on it
    val delivered = ConcurrentLinkedQueue[Int]()
    val received = ConcurrentLinkedQueue[Int]()
    val next = AtomicInteger()
    val rounds = 4000
    Async.blocking:
      def produce(useSelect: Boolean)(using Async): Unit =
        for _ <- 0 until rounds do
          val v = next.getAndIncrement()
          val sent =
            if useSelect then
              Async.select(ch.sendSource(v) ~~> (_.isSuccess), side.canRead ~~> (_ => false))
            else
              ch.send(v)
              true
          if sent then delivered.add(v)
      def consume(useSelect: Boolean)(using Async): Unit =
        var going = true
        while going do
          val r =
            if useSelect then
              Async.select(ch.canRead ~~> identity, side.sendSource(-1) ~~> (_ => Success(-1)))
            else ch.read()
          r match
            case Success(v) if v >= 0 => received.add(v)
            case Success(_)           => ()
            case _                    => going = false
      // victims: participants cancelled at random moments; what they sent/read is recorded
      val victims = (1 to 40).map: k =>
        Future:
          if k % 2 == 0 then produce(k % 4 == 0) else consume(k % 3 == 0)
      val rnd = Random(7)
      val producers = (0 until 3).map(p => Future(produce(p == 0)))
      val consumers = (0 until 3).map(c => Future(consume(c == 0)))
      for v <- victims do
        Thread.sleep(rnd.nextInt(3).toLong)
        v.cancel()
      producers.foreach(_.await)
      ch.close()
      consumers.foreach(_.await)
    assertExactlyOnce(received, delivered)
