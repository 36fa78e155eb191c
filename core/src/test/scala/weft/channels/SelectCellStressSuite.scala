package weft.channels

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import scala.util.{Random, Success, Try}
import weft.*
import weft.testing.StressChecks

/**
 * Selecting readers over two and three rendezvous channels (their cases parked in cells), fed by
 * blocking senders and by selects sending on two channels at once, with random cancellation of
 * senders and readers: every value whose send reported delivery is received exactly once, and
 * nothing else is received. Bounded by count: a few thousand values per run.
 */
class SelectCellStressSuite extends munit.FunSuite, StressChecks:
  override val munitTimeout = scala.concurrent.duration.Duration(120, "s")

  for (width, seed) <- List((2, 1), (3, 2), (2, 3), (3, 4)) ++ extra do
    test(s"$width rendezvous channels, seed $seed: delivered values received exactly once"):
      withinDeadline(60, "select-cells-")(run(width, seed))

  // More runs on request (-Dweft.selectStress=N), for loops outside CI.
  private def extra =
    (1 to Integer.getInteger("weft.selectStress", 0)).map(k => (2 + k % 2, 10 + k))

  def run(width: Int, seed: Int): Unit =
    val chs = Vector.fill(width)(SyncChannel[Int]())
    val side = BufferedChannel[Int](1) // a buffered partner: its send case keeps the watch list
    val delivered = ConcurrentLinkedQueue[Int]()
    val received = ConcurrentLinkedQueue[Int]()
    val next = AtomicInteger()
    val rounds = 1500
    Async.blocking:
      def produce(k: Int)(using Async): Unit =
        for i <- 0 until rounds do
          val v = next.getAndIncrement()
          val c = chs((k + i) % width)
          val sent = (k + i) % 3 match
            case 0 =>
              c.send(v)
              true
            case 1 =>
              val d = chs((k + i + 1) % width)
              Async.select(c.sendSource(v) ~~> (_.isSuccess), d.sendSource(v) ~~> (_.isSuccess))
            case _ =>
              Async.select(c.sendSource(v) ~~> (_.isSuccess), side.canRead ~~> (_ => false))
          if sent then delivered.add(v)
      // A consumer that must finish reads every channel in each step (else it could wait on one
      // channel while the last producer waits on another); only victims read one channel.
      def consume(k: Int, victim: Boolean)(using Async): Unit =
        var going = true
        var i = 0
        while going do
          val r: Try[Int] = (k + i) % 3 match
            case 0 if victim => chs(i % width).read()
            case 0 | 1       => Async.select(chs.map(_.canRead ~~> identity)*)
            case _ =>
              val cases: Vector[SelectCase[?, Try[Int]]] =
                chs.map(_.canRead ~~> identity) :+ (side.sendSource(-1) ~~> (_ => Success(-1)))
              Async.select(cases*)
          r match
            case Success(v) if v >= 0 => received.add(v)
            case Success(_)           => ()
            case _                    => going = false
          i += 1
      val rnd = Random(seed)
      val victims = (1 to 30).map: k =>
        Future(if k % 2 == 0 then produce(k) else consume(k, victim = true))
      val producers = (0 until 3).map(p => Future(produce(p)))
      val consumers = (0 until 3).map(c => Future(consume(c, victim = false)))
      for v <- victims do
        Thread.sleep(rnd.nextInt(3).toLong)
        v.cancel()
      producers.foreach(_.await)
      chs.foreach(_.close())
      consumers.foreach(_.await)
    assertExactlyOnce(received, delivered)
