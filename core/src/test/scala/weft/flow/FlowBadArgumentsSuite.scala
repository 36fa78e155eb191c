package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import weft.*
import weft.channels.BufferedChannel
import weft.testing.Deadlined

/**
 * Every operator's bad argument throws an `IllegalArgumentException` naming the operator and the
 * parameter when the operator is called, before any run: each case below only builds a flow
 * (no `Async` in sight), and the flow it is built on is never run.
 */
class FlowBadArgumentsSuite extends munit.FunSuite, Deadlined:

  /** A source that counts its runs: none of the cases may run it. */
  val runs = AtomicInteger()
  val src: Flow[Int] = Flow.usingEmit[Int] { emit =>
    runs.incrementAndGet(); emit(1)
  }

  def nul[A]: A = null.asInstanceOf[A]

  /** (operator, parameter, the call). */
  val cases: Seq[(String, String, () => Any)] = Seq(
    ("range", "step", () => Flow.range(0, 10, 0)),
    ("tick", "period", () => Flow.tick(Duration.Zero)),
    ("tick", "period", () => Flow.tick(-1.second)),
    ("tick", "period", () => Flow.tick(nul[FiniteDuration])),
    ("fromIterable", "it", () => Flow.fromIterable(nul[Iterable[Int]])),
    ("fromChannel", "ch", () => Flow.fromChannel(nul[BufferedChannel[Int]])),
    ("fromSource", "src", () => Flow.fromSource(nul[Source[Int]])),
    ("fromFuture", "f", () => Flow.fromFuture(nul[Future[Int]])),
    ("failed", "error", () => Flow.failed(nul[Throwable])),
    ("unfold", "f", () => Flow.unfold(0)(nul[Int => Option[(Int, Int)]])),
    ("iterate", "f", () => Flow.iterate(0)(nul[Int => Int])),
    ("usingEmit", "body", () => Flow.usingEmit[Int](nul[FlowEmit[Int] => Async ?=> Unit])),
    ("map", "f", () => src.map(nul[Int => Int])),
    ("filter", "p", () => src.filter(nul[Int => Boolean])),
    ("collect", "pf", () => src.collect(nul[PartialFunction[Int, Int]])),
    ("tap", "f", () => src.tap(nul[Int => Unit])),
    ("mapConcat", "f", () => src.mapConcat(nul[Int => List[Int]])),
    ("flatMap", "f", () => src.flatMap(nul[Int => Flow[Int]])),
    ("flatMap", "f", () => src.flatMapConcat(nul[Int => Flow[Int]])),
    ("scan", "f", () => src.scan(0)(nul[(Int, Int) => Int])),
    ("take", "n", () => src.take(-1)),
    ("drop", "n", () => src.drop(-1)),
    ("takeWhile", "p", () => src.takeWhile(nul[Int => Boolean])),
    ("dropWhile", "p", () => src.dropWhile(nul[Int => Boolean])),
    ("grouped", "n", () => src.grouped(0)),
    ("grouped", "n", () => src.grouped(-3)),
    ("concat", "other", () => src.concat(nul[Flow[Int]])),
    ("alsoTo", "sink", () => src.alsoTo(nul[BufferedChannel[Int]])),
    ("onError", "f", () => src.onError(nul[Throwable => Unit])),
    ("recover", "pf", () => src.recover(nul[PartialFunction[Throwable, Int]])),
    ("retry", "policy", () => src.retry(nul[Retry])),
    ("timeout", "timeout", () => src.timeout(-1.milli)),
    ("timeout", "timeout", () => src.timeout(nul[FiniteDuration])),
    ("concat", "flows", () => Flow.concat(src, nul[Flow[Int]])),
    ("merge", "flows", () => Flow.merge(src, nul[Flow[Int]])),
    ("buffer", "capacity", () => src.buffer(-1)),
    ("mapPar", "parallelism", () => src.mapPar(0)(i => i)),
    ("mapPar", "f", () => src.mapPar(2)(nul[Int => Async ?=> Int])),
    ("mapParUnordered", "parallelism", () => src.mapParUnordered(0)(i => i)),
    ("mapParUnordered", "f", () => src.mapParUnordered(2)(nul[Int => Async ?=> Int])),
    ("flatMapMerge", "parallelism", () => src.flatMapMerge(0)(i => Flow(i))),
    ("flatMapMerge", "f", () => src.flatMapMerge(2)(nul[Int => Flow[Int]])),
    ("merge", "other", () => src.merge(nul[Flow[Int]])),
    ("zip", "other", () => src.zip(nul[Flow[Int]])),
    ("interleave", "other", () => src.interleave(nul[Flow[Int]])),
    ("interleave", "segmentSize", () => src.interleave(Flow(2), 0)),
    ("groupBy", "parallelism", () => src.groupBy(0, identity)((_, f) => f)),
    ("groupBy", "key", () => src.groupBy(2, nul[Int => Int])((_, f) => f)),
    ("groupBy", "child", () => src.groupBy(2, identity)(nul[(Int, Flow[Int]) => Flow[Int]])),
    ("throttle", "elements", () => src.throttle(0, 1.second)),
    ("throttle", "per", () => src.throttle(1, Duration.Zero)),
    ("groupedWithin", "n", () => src.groupedWithin(0, 1.second)),
    ("groupedWithin", "within", () => src.groupedWithin(1, Duration.Zero)),
    ("debounce", "quiet", () => src.debounce(Duration.Zero)),
    ("conflate", "f", () => src.conflate(nul[(Int, Int) => Int]))
  )

  for (op, param, call) <- cases do
    test(s"$op: a bad $param throws IllegalArgumentException naming both, at the call"):
      val e = intercept[IllegalArgumentException](call())
      assert(e.getMessage.startsWith(s"$op: $param "), e.getMessage)
      assertEquals(runs.get, 0, "the flow ran")

  test("the message gives the value it was"):
    assertEquals(
      intercept[IllegalArgumentException](src.take(-1)).getMessage,
      "take: n must be >= 0, was -1"
    )
    assertEquals(
      intercept[IllegalArgumentException](src.grouped(0)).getMessage,
      "grouped: n must be >= 1, was 0"
    )
    val tick = intercept[IllegalArgumentException](Flow.tick(-1500.millis)).getMessage
    assert(tick.endsWith("was -1.5 s"), s"a duration printed as a duration: $tick")

  test("runToChannel: a negative capacity throws before any fiber starts"):
    Async.blocking:
      val e = intercept[IllegalArgumentException](src.runToChannel(-1))
      assert(e.getMessage.startsWith("runToChannel: capacity "), e.getMessage)
    assertEquals(runs.get, 0)

  test("the terminal operations' null functions name the operation"):
    Async.blocking:
      for (op, param, call) <- Seq[(String, String, () => Any)](
          ("runForeach", "f", () => src.runForeach(nul[Int => Unit])),
          ("runFold", "f", () => src.runFold(0)(nul[(Int, Int) => Int])),
          ("runToEmit", "emit", () => src.runToEmit(nul[FlowEmit[Int]]))
        )
      do
        val e = intercept[IllegalArgumentException](call())
        assert(e.getMessage.startsWith(s"$op: $param "), e.getMessage)
    assertEquals(runs.get, 0)

  test("the bounds themselves are good arguments"):
    Async.blocking:
      assertEquals(src.take(0).runToList(), Nil)
      assertEquals(Flow(1, 2).drop(0).runToList(), List(1, 2))
      assertEquals(Flow(1, 2).grouped(1).runToList(), List(Seq(1), Seq(2)))
      assertEquals(Flow(1, 2).runToChannel(0).toList(), List(1, 2))
      assertEquals(Flow(1, 2).buffer(0).runToList(), List(1, 2))
      assert(src.timeout(Duration.Zero).isInstanceOf[Flow[?]])
