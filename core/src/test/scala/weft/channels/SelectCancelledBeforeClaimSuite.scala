package weft.channels

import java.util.concurrent.{CancellationException, CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicBoolean
import scala.util.{Success, Try}
import weft.*
import weft.testing.TimeTesting.awaitCondition
import weft.internal.channels.{CellChannel, Cells}

/**
 * A select's future cancelled while its case reading a rendezvous channel registers: the
 * registration holds the select's lock from before the cancel and claims a cell after it, where a
 * blocking sender started after the cancel has parked. The lock's check (`WaiterLock`) is behind
 * it, so the registration must decline the sender itself: the value goes to the next reader, not
 * to the cancelled future, whose result the cancel has already set (ADR 0006).
 *
 * This is the window behind the rare failure of `ChannelSelectSuite`, "a value sent right after a
 * select's future is cancelled goes to the next reader": there it opens when the select's carrier
 * is descheduled between taking its lock and claiming its cell; here it is held open. A gate case
 * polled after the read case lets a send-source sender park in cell 0 before the registration;
 * the test holds that sender's lock, so the registration, holding the select's lock, spins there
 * until the test retires it (the sender's select was won elsewhere), then claims cell 1.
 */
class SelectCancelledBeforeClaimSuite extends munit.FunSuite, weft.testing.Deadlined:

  /** A lock the test holds and retires, as the send case of a select won elsewhere. */
  private final class HeldLock extends NumberedLock:
    def giveUp(): Unit = retire()

  /** A send-source listener locked by `held`: never completed in these tests. */
  private final class HeldListener(held: HeldLock) extends Listener[Try[Unit]]:
    val lock: ListenerLock | Null = held
    def complete(data: Try[Unit], source: Source[Try[Unit]]): Unit = held.giveUp()

  /** A case never ready, whose poll waits for `go` (not a blocking wait: an interrupt stays). */
  private final class Gate(inPoll: CountDownLatch, go: AtomicBoolean) extends Source[Int]:
    override private[weft] def completesUnpaired: Boolean = true
    def poll(k: Listener[Int]): Boolean =
      inPoll.countDown()
      while !go.get() do Thread.`yield`()
      false
    def onComplete(k: Listener[Int]): Unit = ()
    def dropListener(k: Listener[Int]): Unit = ()

  /** Whether cell `i` of `ch`'s first segment holds a parked sender. */
  private def senderParkedAt(ch: SyncChannel[Int], i: Int): Boolean =
    ch.asInstanceOf[CellChannel[?]].sendHint.get().cells.get(i).isInstanceOf[Cells.Sender]

  /** Runs the scenario with the root scope entered on the calling thread. */
  private def cancelledBeforeClaim()(using Async): Unit =
    val ch = SyncChannel[Int]()
    val cells = ch.asInstanceOf[CellChannel[?]]
    val inPoll = CountDownLatch(1)
    val go = AtomicBoolean()
    val f = Future:
      Async.select(ch.canRead ~~> (_.get), Gate(inPoll, go) ~~> (_ => -1))
    assert(inPoll.await(20, TimeUnit.SECONDS), "the select never polled its gate case")
    // Cell 0: a send case of another select, whose lock the test holds.
    val held = HeldLock()
    ch.sendSource(7).onComplete(HeldListener(held))
    assert(senderParkedAt(ch, 0), "the send source did not park in cell 0")
    assert(held.acquire())
    go.set(true)
    // The registration holds the select's lock, has claimed cell 0 and spins on `held`.
    awaitCondition("the select's registration claimed cell 0")(cells.receivers == 1)
    f.cancel()
    val s = Future(ch.send(5))
    awaitCondition("the sender parked in cell 1")(senderParkedAt(ch, 1))
    // The other select was won elsewhere: the registration breaks cell 0 and claims cell 1.
    held.giveUp()
    // The cancelled select claims cell 1 first (else the root's read would take it).
    awaitCondition("the select's registration claimed cell 1")(cells.receivers == 2)
    val got = withTimeoutOption(5_000)(ch.read())
    assertEquals(got, Some(Success(5)), "the cancelled select took the parked sender's value")
    s.await
    intercept[CancellationException](f.await)

  test("a select cancelled before its claim leaves a parked sender's value to the next reader"):
    Async.blocking(cancelledBeforeClaim())

  test("the same, the root scope on a virtual thread"):
    val failure = java.util.concurrent.atomic.AtomicReference[Throwable | Null]()
    val t = Thread.ofVirtual().start: () =>
      try Async.blocking(cancelledBeforeClaim())
      catch case e: Throwable => failure.set(e)
    t.join()
    if failure.get() != null then throw failure.get().nn
