package weft.channels

import java.util.concurrent.ConcurrentLinkedQueue
import org.jetbrains.kotlinx.lincheck.annotations.{Operation, Param, Validate}
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen
import scala.jdk.CollectionConverters.*
import scala.util.{Failure, Success, Try}
import weft.{LincheckRuns, ~~>}
import weft.testing.Stress
import weft.internal.select.Selector

/**
 * The non-blocking face of a channel, for Lincheck: `trySend`, `tryRead` and `close`, with
 * results as plain values (exceptions have no equality). Lincheck checks every concurrent
 * execution against sequential runs of the same operations.
 */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
abstract class LincheckChannelOps(ch: Channel[Int]):
  @Operation def trySend(x: Int): String =
    try if ch.trySend(x) then "sent" else "full"
    catch
      case _: ChannelFailedException => "failed"
      case _: ChannelClosedException => "closed"

  @Operation def tryRead(): String = ch.tryRead() match
    case None                                     => "empty"
    case Some(Success(v))                         => v.toString
    case Some(Failure(_: ChannelFailedException)) => "failed"
    case Some(Failure(_: ChannelClosedException)) => "closed"
    case Some(Failure(e))                         => e.toString

  @Operation def close(): Unit = ch.close()

/**
 * The operations of [[LincheckChannelOps]] plus `error`: checks that a channel closed with an
 * error is linearizable too. Every value read before the close was sent, once; every operation
 * that starts after the close (of either kind) sees the first one's outcome; buffered values are
 * dropped by `error` (the sequential runs are the specification).
 */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
abstract class LincheckErrorOps(ch: Channel[Int]) extends LincheckChannelOps(ch):
  @Operation def error(): Unit = ch.error(LincheckErrorOps.Boom)

/** The cause every [[LincheckErrorOps]] fails its channel with. */
object LincheckErrorOps:
  val Boom = IllegalStateException("upstream failed")

/** Lincheck target: a rendezvous channel, closed or failed. */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
class LincheckSyncError extends LincheckErrorOps(SyncChannel[Int]())

/** Lincheck target: a buffered channel of two, closed or failed. */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
class LincheckBufferedError extends LincheckErrorOps(BufferedChannel[Int](2))

/** Lincheck target: an unbounded channel, closed or failed. */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
class LincheckUnboundedError extends LincheckErrorOps(UnboundedChannel[Int]())

/** Lincheck target: a rendezvous channel. */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
class LincheckSync extends LincheckChannelOps(SyncChannel[Int]())

/** Lincheck target: a buffered channel of two (crosses segment-free wraparound quickly). */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
class LincheckBuffered extends LincheckChannelOps(BufferedChannel[Int](2))

/** Lincheck target: an unbounded channel. */
@Param(name = "x", gen = classOf[IntGen], conf = "1:4")
class LincheckUnbounded extends LincheckChannelOps(UnboundedChannel[Int]())

/**
 * Lincheck target: a select over two rendezvous channels (its cases parked in cells) racing
 * `trySend`, selects that send (parked senders carrying a lock, met in either lock order),
 * `tryRead` and `close`. Lincheck threads cannot park, so each select registers and then gives
 * up at once as a cancelled fiber would ([[Selector.abandon]]): a sender may complete it in
 * between. A rendezvous with a select that then gives up has no sequential equivalent, so the
 * operations return nothing and [[check]] validates, after every execution, that the values
 * received are exactly the values whose sends reported delivery.
 */
@Param(name = "x", gen = classOf[IntGen], conf = "1:3")
class LincheckSelect2:
  private val a = SyncChannel[Int]()
  private val b = SyncChannel[Int]()
  private val sent = ConcurrentLinkedQueue[Int]()
  private val received = ConcurrentLinkedQueue[Int]()

  /**
   * Runs a select to its end or gives it up; the handler's result if a case fired. It registers
   * without polling first, so that its cases meet parked senders and parked select cases in the
   * cells they claim (polling would take those through the watch-list path instead).
   */
  private def selectOnce[R](cases: weft.SelectCase[?, R]*): Option[R] =
    val sel = Selector(cases)
    sel.registerAll()
    if !sel.isDone && sel.abandon() then None
    else Some(sel.fire[R]())

  @Operation def select2(): Unit =
    selectOnce(a.canRead ~~> identity, b.canRead ~~> identity) match
      case Some(Success(v)) => received.add(v)
      case _                => ()

  @Operation def trySendA(x: Int): Unit =
    try if a.trySend(x) then sent.add(x)
    catch case _: ChannelClosedException => ()

  @Operation def trySendB(x: Int): Unit =
    try if b.trySend(10 + x) then sent.add(10 + x)
    catch case _: ChannelClosedException => ()

  @Operation def selectSendBoth(x: Int): Unit =
    val v = 20 + x
    selectOnce(a.sendSource(v) ~~> (_.isSuccess), b.sendSource(v) ~~> (_.isSuccess)) match
      case Some(true) => sent.add(v)
      case _          => ()

  @Operation def tryReadB(): Unit = b.tryRead() match
    case Some(Success(v)) => received.add(v)
    case _                => ()

  @Operation def closeA(): Unit = a.close()

  @Operation def errorB(): Unit = b.error(LincheckErrorOps.Boom)

  /** Every value received was reported sent, exactly once, and nothing sent was lost. */
  @Validate def check(): Unit =
    val got = received.asScala.toVector.sorted
    val put = sent.asScala.toVector.sorted
    if got != put then throw AssertionError(s"received $got, but sent $put")

/** Linearizability of send/read/close on each kind: model checking and stress, small sizes. */
class ChannelLincheckSuite extends munit.FunSuite:
  override val munitTimeout = scala.concurrent.duration.Duration(170, "s")

  // Sized for CI on 2 cores: each model-checking invocation explores one interleaving of the
  // channel's spin-then-park loops, which is slow; 2 x 20 still found the trySend race.
  private def modelCheck(c: Class[?], iterations: Int = 2, actorsPerThread: Int = 2): Unit =
    LincheckRuns.modelCheck(c, iterations, 20, threads = 2, actorsPerThread = actorsPerThread)

  private def stress(c: Class[?]): Unit =
    LincheckRuns.stress(c, 10, 200, threads = 3, actorsPerThread = 3)

  test("LincheckUnbounded: model checking, three operations per thread".tag(Stress.tag)):
    // A deeper search on the cheapest kind: with 2 operations per thread the search missed a
    // `tryRead` that answered "empty" while a `trySend` still stored into the head cell and a
    // later `trySend` had returned; 150 x 20 with 3 operations found it.
    modelCheck(classOf[LincheckUnbounded], iterations = 100, actorsPerThread = 3)

  test("LincheckBufferedError: model checking, three operations per thread".tag(Stress.tag)):
    // A deeper search where the close of either kind races reads and sends: a failure recorded
    // after the closed bit (instead of before) let a read answer "closed" on a failed channel,
    // which no sequential run does: the full-size search (`./sbtw stress`) finds that one.
    modelCheck(classOf[LincheckBufferedError], iterations = 100, actorsPerThread = 3)

  test("LincheckSelect2: model checking".tag(Stress.tag)):
    LincheckRuns.modelCheck(classOf[LincheckSelect2], 30, 20, threads = 2, actorsPerThread = 3)

  test("LincheckSelect2: stress".tag(Stress.tag)):
    LincheckRuns.stress(classOf[LincheckSelect2], 30, 300, threads = 3, actorsPerThread = 3)

  for c <- List(
      classOf[LincheckSync],
      classOf[LincheckBuffered],
      classOf[LincheckUnbounded],
      classOf[LincheckSyncError],
      classOf[LincheckBufferedError],
      classOf[LincheckUnboundedError]
    )
  do
    test(s"${c.getSimpleName}: model checking".tag(Stress.tag)):
      modelCheck(c)
    test(s"${c.getSimpleName}: stress".tag(Stress.tag)):
      stress(c)
