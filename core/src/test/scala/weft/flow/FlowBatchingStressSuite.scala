package weft.flow

import java.util.concurrent.ThreadLocalRandom
import weft.*
import weft.testing.{Deadlined, Stress}

/**
 * The batching of the boundaries (`weft.internal.flow.Batching`) under many feeders and random
 * speeds on both sides: every element arrives exactly once, each feeder's elements in its
 * order, whichever way the consumer gets them (a batch, a single element, the pending elements
 * it takes from a feeder before waiting). Random pauses (`Thread.yield`, short sleeps) move the
 * consumer between busy and hungry at every point of the protocol.
 */
class FlowBatchingStressSuite extends munit.FunSuite, Deadlined:

  override def testDeadlineSeconds: Int = if Stress.full then 600 else 60

  private def jitter(odds: Int): Unit =
    val r = ThreadLocalRandom.current().nextInt(odds)
    if r == 0 then Thread.`yield`()

  private def pause(odds: Int)(using Async): Unit =
    if ThreadLocalRandom.current().nextInt(odds) == 0 then sleep(0L)

  /** `feeders` flows of `per` elements each, tagged `(feeder, index)`. */
  private def sources(feeders: Int, per: Int, odds: Int): Seq[Flow[(Int, Int)]] =
    (0 until feeders).map: f =>
      Flow.usingEmit[(Int, Int)] { emit =>
        var i = 0
        while i < per do
          jitter(odds)
          if i % 97 == 0 then pause(odds)
          emit((f, i))
          i += 1
      }

  private def checkOrder(seen: Seq[(Int, Int)], feeders: Int, per: Int): Unit =
    assertEquals(seen.size, feeders * per, "every element once")
    val byFeeder = seen.groupBy(_._1)
    assertEquals(byFeeder.keySet, (0 until feeders).toSet)
    for (f, xs) <- byFeeder do assertEquals(xs.map(_._2), 0 until per, s"feeder $f in order")

  test(
    "merge: many feeders, random speeds: each element once, each feeder in order".tag(Stress.tag)
  ):
    val rounds = Stress.size(200, 20)
    for round <- 0 until rounds do
      val feeders = 1 + round % 6
      val per = 500 + round * 7
      val odds = 2 + round % 5
      val seen = Async.blocking:
        Flow.merge(sources(feeders, per, odds)*).tap(_ => jitter(odds * 3)).runToList()
      checkOrder(seen, feeders, per)

  test("buffer of every small capacity: elements in order, none lost".tag(Stress.tag)):
    val rounds = Stress.size(100, 12)
    for round <- 0 until rounds do
      val capacity = round % 70
      val per = 2000
      val seen = Async.blocking:
        sources(1, per, 3 + round % 4).head.buffer(capacity).tap(_ => jitter(4)).runToList()
      checkOrder(seen, 1, per)

  test("a consumer that waits in a select (groupedWithin) gets every element".tag(Stress.tag)):
    import scala.concurrent.duration.*
    val rounds = Stress.size(60, 8)
    for round <- 0 until rounds do
      val feeders = 1 + round % 4
      val per = 1000
      val seen = Async.blocking:
        Flow.merge(sources(feeders, per, 3)*).groupedWithin(1 + round % 40, 1.millis)
          .mapConcat(identity).runToList()
      checkOrder(seen, feeders, per)

  test("an element crosses at once while its feeder waits: ping-pong through merge and buffer"):
    import weft.channels.BufferedChannel
    for capacity <- Seq(0, 1, 5, 16, 64, 300) do
      val replies = (0 until 3).map(_ => BufferedChannel[Int](1))
      val pingers = (0 until 3).map: f =>
        Flow.usingEmit[(Int, Int)] { emit =>
          for i <- 0 until 200 do
            emit((f, i))
            // the consumer answers only once it got this element: a batching that held it
            // back until more came would wait for ever here
            assertEquals(replies(f).read().get, i)
        }
      val seen = Async.blocking:
        Flow.merge(pingers*).buffer(capacity).tap((f, i) => replies(f).send(i)).runToList()
      checkOrder(seen, 3, 200)
