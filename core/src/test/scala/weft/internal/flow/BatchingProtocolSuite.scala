package weft
package internal.flow

import weft.channels.BufferedChannel
import weft.testing.Deadlined

/**
 * The order of the steps of `Batching.Reader` that the protocol's correctness rests on, checked
 * one interleaving at a time (the stress in `FlowBatchingStressSuite` meets them only by
 * chance): the consumer says it is hungry BEFORE it looks at a feeder's pending elements, so a
 * feeder that adds while the consumer is inside that look sees the flag and hands its element
 * over, instead of keeping it while the consumer waits.
 */
class BatchingProtocolSuite extends munit.FunSuite, Deadlined:

  test("the consumer is hungry while it looks at a feeder (set before the feeders' locks)"):
    val ch = BufferedChannel[AnyRef](4)
    val hunger = Batching.Hunger()
    val writer = Batching.Writer[Integer](ch, 8, hunger)
    val reader = Batching.Reader[Integer](ch, Seq(writer), hunger)
    // the test is the feeder, in the middle of an add: it holds its lock
    writer.lock()
    var polled: Any = null
    val consumer = Thread.ofVirtual().start(() => polled = reader.poll())
    try
      // the consumer now spins on the feeder's lock; it must have said it is hungry already
      while !hunger.hungry && consumer.isAlive do Thread.onSpinWait()
      assert(hunger.hungry, "the consumer looked at the feeder before saying it was hungry")
    finally writer.unlock()
    consumer.join()
    assert(polled.asInstanceOf[AnyRef] eq Batching.Empty, polled)

  test("a feeder hands its element over at once to a hungry consumer"):
    Async.blocking:
      val ch = BufferedChannel[AnyRef](4)
      val hunger = Batching.Hunger()
      val writer = Batching.Writer[Integer](ch, 8, hunger)
      val reader = Batching.Reader[Integer](ch, Seq(writer), hunger)
      assert(reader.poll().asInstanceOf[AnyRef] eq Batching.Empty)
      writer.add(Integer.valueOf(7))
      assertEquals(ch.tryRead().map(_.get), Some(Integer.valueOf(7)), "the element stayed behind")
      assert(!hunger.hungry, "a feeder that handed over leaves the flag set")
      // not hungry now: the next elements gather into a batch, taken when the consumer looks
      writer.add(Integer.valueOf(8))
      writer.add(Integer.valueOf(9))
      assertEquals(ch.tryRead(), None)
      assertEquals(reader.poll(), Integer.valueOf(8))
      assertEquals(reader.poll(), Integer.valueOf(9))
