package weft.channels

import java.util.concurrent.{CancellationException, CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicBoolean
import scala.util.Success
import weft.*
import weft.testing.TimeTesting.awaitCondition
import weft.internal.channels.{CellChannel, Cells}

/**
 * A reader future cancelled while its body is on its way into `read()`, before it claims a cell,
 * while a sender started after the cancel parks in that cell first: the reader meets a parked
 * sender, not the sender a cancelled reader (`Cells.declined`). The value must go to the next
 * reader, not to the cancelled future, whose result the cancel has already set (ADR 0006).
 *
 * This is the window behind the rare failure of `ChannelSelectSuite`, "a value sent right after a
 * blocked read's future is cancelled goes to the next reader": there it opens when the reader's
 * carrier is descheduled between the start of its body and its claim; here a gate holds it open.
 */
class CancelledBeforeClaimSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** Whether cell 0 of `ch` holds a parked sender. */
  private def senderParkedAtZero(ch: CellChannel[?]): Boolean =
    ch.sendHint.get().cells.get(0).isInstanceOf[Cells.Sender]

  /** Runs the scenario with the root scope entered on the calling thread. */
  private def cancelledBeforeClaim()(using Async): Unit =
    val ch = SyncChannel[Int]()
    val inBody = CountDownLatch(1)
    val go = AtomicBoolean()
    val f = Future:
      inBody.countDown()
      // Not a blocking wait: the cancel's interrupt stays pending for the read.
      while !go.get() do Thread.`yield`()
      ch.read()
    assert(inBody.await(20, TimeUnit.SECONDS), "the reader's body never started")
    f.cancel()
    val s = Future(ch.send(5))
    awaitCondition("the sender parked in cell 0")(
      senderParkedAtZero(ch.asInstanceOf[CellChannel[?]])
    )
    go.set(true)
    // The cancelled reader claims cell 0 first (else the root's read would take it).
    awaitCondition("the cancelled reader claimed cell 0")(
      ch.asInstanceOf[CellChannel[?]].receivers == 1
    )
    val got = withTimeoutOption(5_000)(ch.read())
    assertEquals(got, Some(Success(5)), "the cancelled future took the parked sender's value")
    s.await
    intercept[CancellationException](f.await)

  test("a reader cancelled before its claim leaves a parked sender's value to the next reader"):
    Async.blocking(cancelledBeforeClaim())

  test("the same, the root scope on a virtual thread"):
    val failure = java.util.concurrent.atomic.AtomicReference[Throwable | Null]()
    val t = Thread.ofVirtual().start: () =>
      try Async.blocking(cancelledBeforeClaim())
      catch case e: Throwable => failure.set(e)
    t.join()
    if failure.get() != null then throw failure.get().nn
