package weft.channels

import org.jetbrains.kotlinx.lincheck.annotations.{Operation, Param}
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen
import scala.util.{Failure, Success}
import weft.LincheckRuns

/**
 * The non-blocking face of a channel, for Lincheck: `trySend`, `tryRead` and `close`, with
 * results as plain values (exceptions have no equality). Lincheck checks every concurrent
 * execution against sequential runs of the same operations.
 */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
abstract class LincheckChannelOps(ch: Channel[Int]):
  @Operation def trySend(x: Int): String =
    try if ch.trySend(x) then "sent" else "full"
    catch case _: ChannelClosedException => "closed"

  @Operation def tryRead(): String = ch.tryRead() match
    case None                                     => "empty"
    case Some(Success(v))                         => v.toString
    case Some(Failure(_: ChannelClosedException)) => "closed"
    case Some(Failure(e))                         => e.toString

  @Operation def close(): Unit = ch.close()

/** Lincheck target: a rendezvous channel. */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
class LincheckSync extends LincheckChannelOps(SyncChannel[Int]())

/** Lincheck target: a buffered channel of two (crosses segment-free wraparound quickly). */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
class LincheckBuffered extends LincheckChannelOps(BufferedChannel[Int](2))

/** Lincheck target: an unbounded channel. */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
class LincheckUnbounded extends LincheckChannelOps(UnboundedChannel[Int]())

/** Linearizability of send/read/close on each kind: model checking and stress, small sizes. */
class ChannelLincheckSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(170, "s")

  // Sized for CI on 2 cores: each model-checking invocation explores one interleaving of the
  // channel's spin-then-park loops, which is slow; 2 x 20 still found the trySend race.
  private def modelCheck(c: Class[?], iterations: Int = 2, actorsPerThread: Int = 2): Unit =
    LincheckRuns.modelCheck(c, iterations, 20, threads = 2, actorsPerThread = actorsPerThread)

  private def stress(c: Class[?]): Unit =
    LincheckRuns.stress(c, 10, 200, threads = 3, actorsPerThread = 3)

  test("LincheckUnbounded: model checking, three operations per thread"):
    // A deeper search on the cheapest kind: with 2 operations per thread the search missed a
    // `tryRead` that answered "empty" while a `trySend` still stored into the head cell and a
    // later `trySend` had returned; 150 x 20 with 3 operations found it (session 3).
    modelCheck(classOf[LincheckUnbounded], iterations = 100, actorsPerThread = 3)

  for c <- List(classOf[LincheckSync], classOf[LincheckBuffered], classOf[LincheckUnbounded]) do
    test(s"${c.getSimpleName}: model checking"):
      modelCheck(c)
    test(s"${c.getSimpleName}: stress"):
      stress(c)
