package weft.testing

import java.util.concurrent.{CancellationException, ConcurrentLinkedQueue}
import java.util.concurrent.atomic.{AtomicInteger, AtomicIntegerArray}
import scala.jdk.CollectionConverters.*
import weft.*

/**
 * The harness of the cancellation storm: `ops` calls of one blocking operation spread over a
 * few fibers, each call given up at a random moment in one of three ways (a 0-1 ms timeout, a
 * cancel of its future by another fiber after a random spin, or none), with every call's
 * outcome recorded once.
 *
 * The number of calls per storm is the environment variable `WEFT_STORM_OPS` if set, otherwise
 * 20,000 in the stress run and a short sample of 1,500 in the test run (see [[Stress]]).
 */
object Storm:

  /** Calls per storm. */
  val ops: Int =
    sys.env.get("WEFT_STORM_OPS").map(_.toInt).getOrElse(Stress.size(full = 20_000, sample = 1_500))

  /** How a call ended. */
  enum Outcome:
    case Returned, TimedOut, Cancelled, Failed

  /** What a storm saw: outcomes by kind, and the threads its calls ran on. */
  final class Report(n: Int):
    private val outcomes = AtomicIntegerArray(n)
    private val kinds = Outcome.values.map(_ => AtomicInteger())
    private val threads = ConcurrentLinkedQueue[Thread]()

    /** Records the outcome of call `i`. */
    def record(i: Int, o: Outcome): Unit =
      outcomes.incrementAndGet(i)
      kinds(o.ordinal).incrementAndGet()

    /** Records the thread running a call's body. */
    def ranOn(t: Thread): Unit = threads.add(t)

    /** How many calls ended as `o`. */
    def count(o: Outcome): Int = kinds(o.ordinal).get

    /** The calls whose outcome was recorded other than exactly once. */
    def notExactlyOnce: Seq[Int] = (0 until n).filter(i => outcomes.get(i) != 1)

    /** Threads of the storm's calls still alive. */
    def aliveThreads: Seq[Thread] = threads.asScala.toSeq.filter(_.isAlive)

    override def toString: String =
      Outcome.values.map(o => s"$o ${count(o)}").mkString(s"$n calls: ", ", ", "")

  /**
   * Runs `n` calls of `op(i)` on `fibers` fibers, each call given up at random (seeded by
   * `seed`); returns after every fiber of the storm has ended. With `alwaysGiveUp` no call may
   * wait without a limit (for operations that can wait forever, as a read nobody sends to).
   */
  def run(n: Int = ops, fibers: Int = 4, seed: Long = 1, alwaysGiveUp: Boolean = false)(
      op: Int => Async ?=> Unit
  ): Report =
    val report = Report(n)
    val next = AtomicInteger()
    Async.blocking:
      val workers = (0 until fibers).map: w =>
        Future:
          val rnd = scala.util.Random(seed * 31 + w)
          var i = next.getAndIncrement()
          while i < n do
            call(i, rnd, if alwaysGiveUp then 2 else 3, report, op)
            i = next.getAndIncrement()
      workers.awaitAll: Unit
    report

  /** One call of `op`, given up in one of the first `ways` of the three ways. */
  private def call(
      i: Int,
      rnd: scala.util.Random,
      ways: Int,
      report: Report,
      op: Int => Async ?=> Unit
  )(using Async): Unit =
    def body(using Async): Unit =
      report.ranOn(Thread.currentThread())
      op(i)
    val outcome =
      try
        rnd.nextInt(ways) match
          case 0 =>
            if withTimeoutOption(rnd.nextInt(2).toLong)(body).isDefined then Outcome.Returned
            else Outcome.TimedOut
          case 1 =>
            val spin = rnd.nextInt(20_000)
            Async.group:
              val f = Future(body)
              Future:
                var k = 0
                while k < spin do k += 1
                f.cancel()
              f.result match
                case scala.util.Success(_)                        => Outcome.Returned
                case scala.util.Failure(_: CancellationException) => Outcome.Cancelled
                case scala.util.Failure(e)                        => throw e
          case _ =>
            body
            Outcome.Returned
      catch
        case _: CancellationException => Outcome.Cancelled
        case e: Throwable =>
          e.printStackTrace()
          Outcome.Failed
    report.record(i, outcome)
