package weft.flow

import weft.*
import weft.testing.Deadlined
import scala.concurrent.duration.*

class FlowSmokeSuite extends munit.FunSuite, Deadlined:

  test("smoke"):
    Async.blocking:
      assertEquals(Flow.range(0, 10).map(_ * 2).filter(_ % 3 == 0).runToList(), List(0, 6, 12, 18))
      assertEquals(Flow.range(0, 10).buffer(2).take(3).runToList(), List(0, 1, 2))
      assertEquals(
        Flow.range(0, 100).mapPar(4)(i =>
          sleep(((i * 7) % 5).toLong); i
        ).runToList(),
        (0 until 100).toList
      )
      assertEquals(
        Flow.range(0, 100).mapParUnordered(4)(i => i).runToList().sorted,
        (0 until 100).toList
      )
      assertEquals(
        Flow.merge(Flow.range(0, 50), Flow.range(50, 100)).runToList().sorted,
        (0 until 100).toList
      )
      assertEquals(
        Flow.range(0, 5).zip(Flow.range(10, 20)).runToList(),
        List((0, 10), (1, 11), (2, 12), (3, 13), (4, 14))
      )
      assertEquals(
        Flow(1, 2, 3).interleave(Flow(10, 20, 30, 40, 50), 2).runToList(),
        List(1, 2, 10, 20, 3, 30, 40, 50)
      )
      assertEquals(
        Flow.range(0, 10).groupBy(2, _ % 3)((k, f) => f.map(v => (k, v))).runToList().sortBy(_._2)
          .map(_._2),
        (0 until 10).toList
      )
      assertEquals(
        Flow.range(0, 10).groupBy(3, _ % 3)((k, f) => f.take(1)).runToList().sorted,
        List(0, 1, 2)
      )
      assertEquals(
        Flow.range(0, 7).grouped(3).runToList(),
        List(Vector(0, 1, 2), Vector(3, 4, 5), Vector(6))
      )
      assertEquals(
        Flow.range(0, 1000).groupedWithin(100, 1.second).runToList().map(_.size).sum,
        1000
      )
      assertEquals(Flow.range(0, 100).conflate[Int](_ + _).runToList().sum, 4950)
      assertEquals(Flow.range(0, 10).debounce(50.millis).runToList(), List(9))
      assertEquals(
        Flow(1, 2).concat(Flow.failed(new RuntimeException("x"))).recover { case e => -1 }
          .runToList(),
        List(1, 2, -1)
      )
      val e = intercept[RuntimeException](Flow.range(0, 100).buffer(4).map(i =>
        if i == 50 then throw RuntimeException("boom") else i
      ).mapPar(3)(identity).runDrain())
      assertEquals(e.getMessage, "boom")
      var attempts = 0
      assertEquals(
        Flow.usingEmit[Int] { emit =>
          attempts += 1; emit(attempts); if attempts < 3 then throw RuntimeException("again")
        }.retry(Retry.immediate(5)).runToList(),
        List(1, 2, 3)
      )
      assertEquals(Flow.range(0, 10).flatMapMerge(3)(i => Flow(i, i)).runToList().size, 20)
      assertEquals(Flow.tick(10.millis, 1).take(3).runToList(), List(1, 1, 1))
      assertEquals(Flow.range(0, 20).throttle(5, 20.millis).runToList().size, 20)
      val ch = Flow.range(0, 5).runToChannel()
      assertEquals(ch.toList(), List(0, 1, 2, 3, 4))
