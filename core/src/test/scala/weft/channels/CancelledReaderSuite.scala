package weft.channels

import java.util.concurrent.{CancellationException, CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.{AtomicBoolean, AtomicReference}
import scala.util.{Success, Try}
import weft.*
import weft.runtime.AsyncSupport
import weft.testing.TimeTesting.awaitCondition
import weft.internal.async.BodyRunner
import weft.internal.channels.{CellChannel, Cells, SendSource}

/**
 * A blocking reader whose future is cancelled between a sender's check of that cancellation
 * (`Cells.declined`) and the hand-over that follows it (ADR 0023, Consequences): the value has
 * reached the reader's cell, so its `read()` returns it, and the cancellation is raised at the
 * next interruption point. Nothing is lost and nothing is delivered twice.
 *
 * The window is opened deterministically by the reader's own context ([[CancelAtCheck]]): the
 * sender's check of it cancels the reader's future, and the reader notices its interrupt only
 * once the sender has handed the value over.
 */
class CancelledReaderSuite extends munit.FunSuite, weft.testing.Deadlined:

  /**
   * The reading context of the test: delegates to `under`, but the first check of its
   * cancellation made by a thread other than the reader's runs `onCheck` after reading the
   * answer (the cancel lands between a sender's check and its hand-over), and the reader sees an
   * interrupt only once `noticeAfter` is open.
   */
  final class CancelAtCheck(under: Async, reader: Thread, onCheck: () => Unit)(
      noticeAfter: CountDownLatch
  ) extends Async:
    private val armed = AtomicBoolean(true)

    /** Whether a sender's check ran `onCheck` (the window was opened). */
    def fired: Boolean = !armed.get()
    def group: CompletionGroup = under.group
    def withGroup(g: CompletionGroup): Async = under.withGroup(g)
    def support: AsyncSupport = under.support
    private[weft] def runnerOnCurrentFiber: BodyRunner | Null = under.runnerOnCurrentFiber
    private[weft] def cancellationPending: Boolean =
      val pending = under.cancellationPending
      if !pending && (Thread.currentThread() ne reader) && armed.compareAndSet(true, false) then
        onCheck()
      pending
    override private[weft] def absorbsInterrupt: Boolean =
      if !noticeAfter.await(20, TimeUnit.SECONDS) then throw AssertionError("sender never ran")
      under.absorbsInterrupt

  /**
   * Parks a reader future on a rendezvous channel, lets `send` hand it `7` from the calling
   * thread, and checks that the cancelled reader's `read()` returned the value.
   */
  def cancelledAsValueArrives(send: SyncChannel[Int] => Unit)(using Async): Unit =
    val ch = SyncChannel[Int]()
    val sent = CountDownLatch(1)
    val read = AtomicReference[Try[Int] | Null]()
    val bodyDone = CountDownLatch(1)
    val futureRef = AtomicReference[Future[Unit] | Null]()
    val context = AtomicReference[CancelAtCheck | Null]()
    val interruptRaised = AtomicBoolean()
    val f: Future[Unit] = Future:
      try
        awaitCondition("the future was published")(futureRef.get() != null)
        val cx = CancelAtCheck(
          summon[Async],
          Thread.currentThread(),
          () => futureRef.get().nn.cancel()
        )(sent)
        context.set(cx)
        read.set(ch.read()(using cx))
        interruptRaised.set(Thread.currentThread().isInterrupted)
      finally bodyDone.countDown()
    futureRef.set(f)
    val cells = ch.asInstanceOf[CellChannel[Int]].recvHint.get().cells
    awaitCondition("the reader parked in its cell")(cells.get(0).isInstanceOf[Cells.Reader])
    send(ch)
    sent.countDown()
    assert(bodyDone.await(20, TimeUnit.SECONDS), "the cancelled reader never returned")
    assert(context.get().nn.fired, "no sender checked the reader's cancellation: no window")
    assertEquals(read.get(), Success(7), "the value handed to the cancelled reader was lost")
    assert(interruptRaised.get(), "the cancellation was not left for the next interruption point")
    intercept[CancellationException](f.await)
    assertEquals(ch.tryRead(), None, "the value was delivered twice")

  test("a blocking send meeting a reader cancelled after its check: read() returns the value"):
    Async.blocking(cancelledAsValueArrives(_.send(7)))

  test("the same, the sender a virtual thread"):
    val failure = AtomicReference[Throwable | Null]()
    val t = Thread.ofVirtual().start: () =>
      try Async.blocking(cancelledAsValueArrives(_.send(7)))
      catch case e: Throwable => failure.set(e)
    t.join()
    if failure.get() != null then throw failure.get().nn

  test("a trySend (a send source's poll) meeting a reader cancelled after its check"):
    Async.blocking(cancelledAsValueArrives(ch => assert(ch.trySend(7), "trySend refused")))

  test("a send source's registration (addSender) meeting a reader cancelled after its check"):
    // Registered directly: a select's own poll would find the parked reader first (the case
    // above), and the registration meets it only when the reader parks after that poll.
    Async.blocking:
      cancelledAsValueArrives: ch =>
        val result = AtomicReference[Try[Unit] | Null]()
        val src = ch.sendSource(7).asInstanceOf[SendSource[Int]]
        val k = Listener[Try[Unit]]((r, _) => result.set(r))
        src.addSender(Cells.Sender(Cells.encode(7), null, k, src, null))
        assertEquals(result.get(), Success(()), "the send source's listener was not completed")
