package weft

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch}
import scala.jdk.CollectionConverters.*
import weft.channels.SyncChannel

/**
 * `uninterruptible` at the root (ADR 0016) around the waits that park on their own instead of
 * through `Async.await`: a channel's blocking read and send, a semaphore's acquire. An interrupt
 * of the caller while it waits is absorbed, the wait goes on and completes (the value read is
 * kept, the value sent delivered, the permit held), and the interrupt is raised as an
 * `InterruptedException` when the block ends. On platform and virtual callers.
 */
class RootUninterruptibleSuite extends munit.FunSuite, weft.testing.StressChecks:

  /** Runs `body` on a new thread of the kind asked for and returns what it threw, if anything. */
  private def onThread(virtual: Boolean)(body: => Unit): (Thread, () => Throwable | Null) =
    @volatile var thrown: Throwable | Null = null
    val builder = if virtual then Thread.ofVirtual() else Thread.ofPlatform()
    val t = builder.start: () =>
      try body
      catch case e: Throwable => thrown = e
    (t, () => thrown)

  /**
   * Interrupts `caller` once it waits inside the block, then waits until it has seen the
   * interrupt (its status is cleared) and parked again, before the other side goes on.
   */
  private def interruptWhileParked(caller: Thread, inBlock: CountDownLatch): Unit =
    inBlock.await()
    while caller.getState != Thread.State.WAITING && caller.isAlive do Thread.onSpinWait()
    caller.interrupt()
    while (caller.isInterrupted || caller.getState != Thread.State.WAITING) && caller.isAlive do
      Thread.onSpinWait()

  /**
   * Runs `wait` (given a way to let the other side go) inside a root `uninterruptible` block on
   * a new caller thread, interrupts the caller while it waits, and checks that the wait
   * completed, that nothing after the block ran, and that the block raised the interrupt.
   */
  private def check(virtual: Boolean, name: String)(
      wait: (CountDownLatch, CountDownLatch, ConcurrentLinkedQueue[String]) => Async ?=> Unit
  ): List[String] =
    val log = ConcurrentLinkedQueue[String]()
    withinDeadline(20, s"root-uninterruptible-$name"):
      val inBlock = CountDownLatch(1)
      val go = CountDownLatch(1)
      val (caller, thrown) = onThread(virtual):
        Async.blocking:
          wait(inBlock, go, log)
          log.add("after the block (must not run)")
      interruptWhileParked(caller, inBlock)
      go.countDown()
      caller.join()
      assert(thrown().isInstanceOf[InterruptedException], s"got ${thrown()}")
    log.asScala.toList

  for virtual <- Seq(false, true) do
    val kind = if virtual then "virtual" else "platform"

    test(s"a $kind caller interrupted in a root block's channel read keeps the value"):
      val log = check(virtual, s"read-$kind"): (inBlock, go, log) =>
        val ch = SyncChannel[Int]()
        Future:
          go.await()
          ch.send(42)
        uninterruptible:
          inBlock.countDown()
          log.add(s"read ${ch.read().get}")
      assertEquals(log, List("read 42"))

    test(s"a $kind caller interrupted in a root block's channel send delivers the value"):
      val log = check(virtual, s"send-$kind"): (inBlock, go, log) =>
        val ch = SyncChannel[Int]()
        val reader = Future:
          go.await()
          ch.read().get
        try
          uninterruptible:
            inBlock.countDown()
            ch.send(7)
            log.add("sent")
        finally log.add(s"reader got ${reader.await}")
      assertEquals(log, List("sent", "reader got 7"))

    test(s"a $kind caller interrupted in a root block's semaphore acquire holds the permit"):
      val s = Semaphore(1)
      val log = check(virtual, s"acquire-$kind"): (inBlock, go, log) =>
        val holder = s.acquire()
        Future:
          go.await()
          holder.close()
        uninterruptible:
          inBlock.countDown()
          val g = s.acquire()
          log.add(s"acquired, ${s.available} free")
          g.close()
      assertEquals(log, List("acquired, 0 free"))
      assertEquals(s.available, 1)
