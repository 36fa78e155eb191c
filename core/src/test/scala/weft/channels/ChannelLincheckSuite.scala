package weft.channels

import org.jetbrains.kotlinx.lincheck.LinCheckerKt
import org.jetbrains.kotlinx.lincheck.annotations.{Operation, Param}
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions
import scala.util.{Failure, Success}

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

  private def modelCheck(c: Class[?]): Unit =
    val o = ModelCheckingOptions().iterations(3).invocationsPerIteration(50).threads(2)
      .actorsPerThread(3)
    LinCheckerKt.check(o, c)

  private def stress(c: Class[?]): Unit =
    val o = StressOptions().iterations(10).invocationsPerIteration(200).threads(3)
      .actorsPerThread(3)
    LinCheckerKt.check(o, c)

  for c <- List(classOf[LincheckSync], classOf[LincheckBuffered], classOf[LincheckUnbounded]) do
    test(s"${c.getSimpleName}: model checking"):
      modelCheck(c)
    test(s"${c.getSimpleName}: stress"):
      stress(c)
