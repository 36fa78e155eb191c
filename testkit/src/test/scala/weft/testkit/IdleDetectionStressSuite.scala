package weft.testkit

import java.util.SplittableRandom
import java.util.concurrent.ConcurrentLinkedQueue
import scala.concurrent.duration.*
import scala.jdk.CollectionConverters.*
import weft.*
import weft.testing.{Deadlined, Stress}

/**
 * The idle detection under load: 50 fibers in pairs ([[IdleLane]]) hand values to each other
 * through rendezvous and buffered channels, promises, semaphores and select, with random virtual
 * sleeps, expiring timeouts and cancelled futures, while a metronome sleeps a random schedule.
 * Every receive asserts the clock did not move between the value's delivery and the receiver's
 * wake, every timer asserts it ended exactly when due, and each round's end is the latest of
 * its fibers' ends.
 *
 * Size: `WEFT_IDLE_ROUNDS` rounds, or rounds for `WEFT_IDLE_SECONDS` of wall time (the long
 * run); by default a sample of seconds (`./sbtw stress`: more).
 */
class IdleDetectionStressSuite extends Deadlined:

  private val seconds: Option[Long] = sys.env.get("WEFT_IDLE_SECONDS").map(_.toLong)

  private val rounds: Int = sys.env
    .get("WEFT_IDLE_ROUNDS").map(_.toInt)
    .getOrElse(Stress.size(full = 3000, sample = 60))

  override def testDeadlineSeconds: Int = seconds.fold(300)(_.toInt + 300)

  // munit's own limit would report a long run as timed out and hide its failure.
  override val munitTimeout = Duration(testDeadlineSeconds + 60, "s")

  private val lanes = 25
  private val steps = 12
  private val roundsPerScope = 10

  /** One round: the lanes and a metronome; returns the round's length in nanoseconds. */
  private def round(n: Int, r: SplittableRandom, errors: ConcurrentLinkedQueue[String])(using
      VirtualClock,
      Async
  ): Long =
    val start = currentTime.toNanos
    val ls = Vector.tabulate(lanes)(i => IdleLane(i, steps, r.split(), errors))
    val guards = ls.map(_.takePermits())
    val naps = Vector.fill(20)(r.nextInt(4).toLong)
    val metronome = Future:
      var expected = start
      for nap <- naps do
        sleep(nap)
        expected += nap * 1_000_000L
        val t = currentTime.toNanos
        if t != expected then errors.add(s"round $n: the metronome woke at $t, due at $expected")
      currentTime.toNanos
    val fs = ls.indices.flatMap(i =>
      Seq(Future(ls(i).runA(guards(i))), Future(ls(i).runB()))
    )
    fs.foreach(_.await)
    val metEnd = metronome.await
    ls.foreach(_.checkEnd())
    val latest = (ls.flatMap(l => Seq(l.endA.get, l.endB.get)) :+ metEnd).max
    val end = currentTime.toNanos
    if end != latest then
      errors.add(s"round $n: the round ended at $end, its last fiber at $latest")
    end - start

  test("a fiber woken by a value sees the time unchanged; timers end exactly when due"):
    val seed = sys.env.get("WEFT_IDLE_SEED").map(_.toLong).getOrElse(System.nanoTime())
    val r = SplittableRandom(seed)
    val errors = ConcurrentLinkedQueue[String]()
    val wallStart = System.nanoTime()
    def more(done: Int): Boolean = seconds match
      case Some(s) => System.nanoTime() - wallStart < s * 1_000_000_000L
      case None    => done < rounds
    var done = 0
    var virtual = 0L
    while more(done) && errors.isEmpty do
      VirtualTime.run:
        var i = 0
        while i < roundsPerScope && errors.isEmpty do
          virtual += round(done + i, r, errors)
          i += 1
        done += i
    val wall = (System.nanoTime() - wallStart).nanos
    println(
      s"IdleDetectionStressSuite: $done rounds (seed $seed), ${virtual.nanos.toMillis} ms " +
        s"virtual in ${wall.toMillis} ms wall"
    )
    val errs = errors.asScala.toList
    assert(errs.isEmpty, s"seed $seed, ${errs.size} errors:\n${errs.take(10).mkString("\n")}")
