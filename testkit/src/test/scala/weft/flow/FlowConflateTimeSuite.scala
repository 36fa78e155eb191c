package weft.flow

import scala.concurrent.duration.*
import weft.*
import weft.flow.FlowTimeTesting.*
import weft.testing.{Deadlined, FailureChecks}
import weft.testing.VirtualTesting.*
import weft.testkit.*

/**
 * `conflate` and `buffer` against a consumer that sleeps: which merged elements arrive and when
 * (conflate never holds the producer back), and how far a buffer lets the producer run ahead
 * (it holds it back). On virtual time, so each instant is exact.
 *
 * The producer's and the consumer's instants are chosen never to coincide while both run: two
 * timers due at one instant wake their fibers in either order, and which of a merged element and
 * a newer one goes first would then be a race.
 */
class FlowConflateTimeSuite extends munit.FunSuite, Deadlined, FailureChecks:

  /** `count` elements, 1 to `count`, one every `period`, the first after one period. */
  private def producer(count: Int, period: FiniteDuration, produced: FiniteDuration => Unit)(using
      VirtualClock
  ): Flow[List[Int]] =
    Flow.usingEmit: emit =>
      for i <- 1 to count do
        sleep(period)
        produced(currentTime)
        emit(List(i))

  /** Runs `flow` with a consumer that takes `busy` per element; each element with its arrival. */
  private def slowly[T](flow: Flow[T], busy: FiniteDuration)(using VirtualClock, Async) =
    var arrived = Vector.empty[(FiniteDuration, T)]
    flow.runForeach { t =>
      arrived :+= (currentTime, t)
      sleep(busy)
    }
    arrived.toList

  onBothCallers("every 10 ms into a consumer of 35 ms: what came while it worked arrives merged"):
    VirtualTime.run:
      var produced = Vector.empty[FiniteDuration]
      val flow = producer(7, 10.millis, produced :+= _).conflate[List[Int]](_ ++ _)
      assertEquals(
        slowly(flow, 35.millis),
        List(
          10.millis -> List(1), // the consumer was waiting
          45.millis -> List(2, 3, 4), // came at 20, 30, 40 ms while it worked
          80.millis -> List(5, 6, 7) // 50, 60, 70 ms; the producer ended at 70 ms
        )
      )
      assertEquals(
        produced,
        (1 to 7).map(i => (i * 10).millis).toVector,
        "the producer was held back"
      )
      assertEquals(currentTime, 115.millis, "the run ends when the consumer is done")
      assertEquals(scopeTimers, 0)

  test("every 10 ms into a consumer of 33 ms: 20 elements in 7 merged ones, none lost"):
    VirtualTime.run:
      val flow = producer(20, 10.millis, _ => ()).conflate[List[Int]](_ ++ _)
      val out = slowly(flow, 33.millis)
      assertEquals(
        out,
        List(
          10 -> (1 to 1),
          43 -> (2 to 4),
          76 -> (5 to 7),
          109 -> (8 to 10),
          142 -> (11 to 14), // 110, 120, 130, 140 ms
          175 -> (15 to 17),
          208 -> (18 to 20) // the producer ended at 200 ms
        ).map((t, r) => (t.millis, r.toList))
      )

  test("keep the latest: the consumer sees the newest element each time it asks"):
    VirtualTime.run:
      val flow = producer(7, 10.millis, _ => ()).map(_.head).conflate[Int]((_, newer) => newer)
      assertEquals(
        slowly(flow, 35.millis),
        List(10 -> 1, 45 -> 4, 80 -> 7).map((t, v) => (t.millis, v))
      )

  test("a consumer faster than the producer gets every element alone, at its time"):
    VirtualTime.run:
      val flow = producer(5, 10.millis, _ => ()).conflate[List[Int]](_ ++ _)
      assertEquals(slowly(flow, 3.millis), (1 to 5).toList.map(i => ((i * 10).millis, List(i))))

  test("a failure upstream while a merged element waits ends the run with it"):
    VirtualTime.run:
      val boom = IllegalStateException("boom")
      val flow =
        producer(3, 10.millis, _ => ()).concat(Flow.failed(boom)).conflate[List[Int]](_ ++ _)
      var arrived = Vector.empty[List[Int]]
      val e = intercept[IllegalStateException](flow.runForeach { l =>
        arrived :+= l
        sleep(1.hour)
      })
      assert(e eq boom, s"the failure was replaced by $e")
      assertEquals((arrived, currentTime), (Vector(List(1)), 30.millis))
      assertEquals(scopeTimers, 0)

  test("stopped downstream midway: the producer's and the merger's fibers end with the run"):
    VirtualTime.run:
      var producerFiber: Thread | Null = null
      val flow = producer(7, 10.millis, _ => producerFiber = Thread.currentThread())
        .conflate[List[Int]](_ ++ _)
        .take(2)
      assertEquals(stamped(flow), List(10.millis -> List(1), 20.millis -> List(2)))
      assert(producerFiber != null && !producerFiber.nn.isAlive, "the producer outlived the run")
      assertEquals(scopeTimers, 0, "the producer's sleep was left scheduled")

  test("the caller cancelled midway: the run stops with what it had delivered"):
    VirtualTime.run:
      var arrived = Vector.empty[(FiniteDuration, List[Int])]
      var producerFiber: Thread | Null = null
      val flow =
        producer(7, 10.millis, _ => producerFiber = Thread.currentThread()).conflate[List[Int]](
          _ ++ _
        )
      val r = withTimeoutOption(55.millis):
        flow.runForeach { l =>
          arrived :+= (currentTime, l)
          sleep(35.millis)
        }
      assertEquals(r, None)
      assertEquals(arrived, Vector(10.millis -> List(1), 45.millis -> List(2, 3, 4)))
      assertEquals(currentTime, 55.millis)
      assert(producerFiber != null && !producerFiber.nn.isAlive, "the producer outlived the run")
      assertEquals(scopeTimers, 0)

  // A buffer, unlike conflate, holds the producer back: it runs ahead of the consumer by the
  // buffer's capacity, plus the element the consumer holds and one waiting to be sent.
  for capacity <- List(0, 3) do
    test(s"buffer($capacity) and a consumer of 35 ms: the producer runs ahead by its capacity"):
      VirtualTime.run:
        var produced = Vector.empty[FiniteDuration]
        val flow = Flow.range(0, 10).tap(_ => produced :+= currentTime).buffer(capacity)
        val out = slowly(flow, 35.millis)
        assertEquals(out, (0 until 10).toList.map(k => ((k * 35).millis, k)))
        val ahead = (0 until 10).map(k => (math.max(0, k - capacity - 1) * 35).millis)
        assertEquals(produced, ahead.toVector)
