package weft.bench

import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import org.openjdk.jmh.annotations.*
import weft.{Async, await}

/**
 * Workload `race-3` (seed 002, Async.race, without the sleeps dominating): three tasks race; one
 * returns at once, two block (sleep for a minute or never complete) until they are cancelled.
 * Each op starts all three, takes the winner and cancels the losers.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Array(Mode.Throughput))
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(Race3.N)
class Race3:
  import Race3.*

  /** weft: `Async.race` of three futures in an `Async.group`, whose end cancels the losers. */
  @Benchmark
  def weft(): Long = OnVirtualThread.blocking {
    var sum = 0L
    var i = 0
    while i < N do
      val value = i.toLong
      sum += Async.group {
        val winner = _root_.weft.Future(value)
        val l1 = _root_.weft.Future(sleeper())
        val l2 = _root_.weft.Future(sleeper())
        Async.await(Async.race(winner, l1, l2)).get
      }
      i += 1
    sum
  }

  /**
   * weft without the race: the same three futures, awaiting the known winner directly (the
   * seed's "await the fastest only"); the group's end cancels the losers.
   */
  @Benchmark
  def awaitWinner(): Long = OnVirtualThread.blocking {
    var sum = 0L
    var i = 0
    while i < N do
      val value = i.toLong
      sum += Async.group {
        val winner = _root_.weft.Future(value)
        _root_.weft.Future(sleeper())
        _root_.weft.Future(sleeper())
        winner.await
      }
      i += 1
    sum
  }

  /** ox: `raceSuccess` of three forks; losers are interrupted. */
  @Benchmark
  def ox(): Long = OnVirtualThread.run {
    var sum = 0L
    var i = 0
    while i < N do
      val value = i.toLong
      sum += _root_.ox.raceSuccess(value, sleeper(), sleeper())
      i += 1
    sum
  }

  /** cats-effect: `IO.race` nested for three (it has only a binary race); losers are `IO.never`. */
  @Benchmark
  def catsEffect(): Long =
    import cats.effect.IO
    def one(i: Int): IO[Long] =
      IO.race(IO(i.toLong), IO.race(IO.never[Long], IO.never[Long])).map(_.fold(identity, _.merge))
    def loop(i: Int, acc: Long): IO[Long] =
      if i == N then IO.pure(acc) else one(i).flatMap(v => loop(i + 1, acc + v))
    EffectRuntimes.runCats(loop(0, 0L))

  /**
   * Three bare virtual threads; the winner sets an atomic flag the caller spins on, then the
   * losers are interrupted and all three joined (the seed's "spin lock").
   */
  @Benchmark
  def spinLock(): Long = OnVirtualThread.run {
    var sum = 0L
    var i = 0
    while i < N do
      val done = AtomicBoolean(false)
      val winner = Thread.ofVirtual().start(() => done.set(true))
      val l1 = Thread.ofVirtual().start(() => sleeperQuietly())
      val l2 = Thread.ofVirtual().start(() => sleeperQuietly())
      while !done.get do Thread.onSpinWait()
      l1.interrupt()
      l2.interrupt()
      winner.join()
      l1.join()
      l2.join()
      sum += i
      i += 1
    sum
  }

/** Constants and losers of [[Race3]]. */
object Race3:
  /** Races per invocation. */
  final val N = 100

  /** How long a loser would take if nobody cancelled it. */
  final val LoserMillis = 60000L

  /** A loser: sleeps until interrupted. */
  def sleeper(): Long =
    Thread.sleep(LoserMillis)
    -1L

  /** A loser that swallows its interruption (for bare threads). */
  def sleeperQuietly(): Unit =
    try Thread.sleep(LoserMillis)
    catch case _: InterruptedException => ()
