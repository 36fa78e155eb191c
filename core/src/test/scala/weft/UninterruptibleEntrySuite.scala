package weft

import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch}
import scala.jdk.CollectionConverters.*
import weft.testing.InvariantChecks

/**
 * An interrupt never lands inside an `uninterruptible` block: a future cancelled (and so
 * interrupted) just before it enters a block has that interrupt cleared on entry, so blocking
 * calls inside the block run to their end; the cancellation is raised when the block ends.
 */
class UninterruptibleEntrySuite extends munit.FunSuite, InvariantChecks:

  test("an interrupt delivered before an uninterruptible block does not reach inside it"):
    val log = ConcurrentLinkedQueue[String]()
    holdsWithin(10, "uninterruptible clears an interrupt delivered before the block"):
      Async.blocking:
        val started = CountDownLatch(1)
        @volatile var go = false
        val f = Future:
          started.countDown()
          while !go do Thread.onSpinWait() // not an interruptible wait: the interrupt stays set
          uninterruptible:
            try
              Thread.sleep(1)
              log.add("slept")
            catch case _: InterruptedException => log.add("interrupted inside the block")
          log.add("after the block (must not run)")
        started.await()
        f.cancel() // interrupts the fiber: it is not inside a block yet
        go = true
      // the scope has joined f's fiber: its log is complete
    assertEquals(
      log.asScala.toList,
      List("slept"),
      "interrupted inside the block, or not raised after"
    )
