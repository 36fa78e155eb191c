package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import scala.concurrent.duration.*
import scala.util.{Failure, Success}
import weft.*
import weft.channels.BufferedChannel
import weft.testing.{Deadlined, Waits}

/**
 * The sources of flows: their values and order, that they are cold (nothing is read or
 * evaluated before a terminal operation, and each run starts over), and how their failures
 * reach the caller (as thrown, never wrapped).
 */
class FlowSourcesSuite extends munit.FunSuite, Deadlined:

  test("empty, apply, fromValues, fromIterable: their values, in order"):
    Async.blocking:
      assertEquals(Flow.empty[Int].runToList(), Nil)
      assertEquals(Flow(3, 1, 2).runToList(), List(3, 1, 2))
      assertEquals(Flow.fromValues("a", "b").runToList(), List("a", "b"))
      assertEquals(Flow.fromIterable(Vector(5, 6, 7)).runToList(), List(5, 6, 7))
      assertEquals(Flow.fromIterable(Set.empty[Int]).runToList(), Nil)

  test("fromIterable iterates anew on each run"):
    val iterated = AtomicInteger()
    val it = new Iterable[Int]:
      def iterator: Iterator[Int] =
        iterated.incrementAndGet()
        Iterator(1, 2)
    val f = Flow.fromIterable(it)
    assertEquals(iterated.get, 0, "iterated before a run")
    Async.blocking:
      assertEquals(f.runToList(), List(1, 2))
      assertEquals(f.runToList(), List(1, 2))
    assertEquals(iterated.get, 2)

  test("fromIterator evaluates its argument once per run"):
    val made = AtomicInteger()
    val f = Flow.fromIterator { made.incrementAndGet(); Iterator("x", "y") }
    assertEquals(made.get, 0, "evaluated before a run")
    Async.blocking:
      assertEquals(f.runToList(), List("x", "y"))
      assertEquals(f.runToList(), List("x", "y"))
    assertEquals(made.get, 2)

  test("range: end exclusive, any step, counting down, no wrap near the Int bounds"):
    Async.blocking:
      assertEquals(Flow.range(0, 5).runToList(), List(0, 1, 2, 3, 4))
      assertEquals(Flow.range(0, 10, 3).runToList(), List(0, 3, 6, 9))
      assertEquals(Flow.range(5, 0, -2).runToList(), List(5, 3, 1))
      assertEquals(Flow.range(3, 3).runToList(), Nil)
      assertEquals(Flow.range(4, 1).runToList(), Nil)
      assertEquals(Flow.range(1, 4, -1).runToList(), Nil)
      assertEquals(
        Flow.range(Int.MaxValue - 2, Int.MaxValue).runToList(),
        List(Int.MaxValue - 2, Int.MaxValue - 1)
      )
      assertEquals(
        Flow.range(Int.MaxValue - 3, Int.MaxValue, 2).runToList(),
        List(Int.MaxValue - 3, Int.MaxValue - 1)
      )
      assertEquals(
        Flow.range(Int.MinValue + 2, Int.MinValue, -1).runToList(),
        List(Int.MinValue + 2, Int.MinValue + 1)
      )
      assertEquals(Flow.range(0, 1000).runToList(), (0 until 1000).toList)

  test("fromChannel: reads until the channel is closed"):
    Async.blocking:
      val ch = BufferedChannel[Int](10)
      val f = Flow.fromChannel(ch)
      ch.send(1)
      ch.send(2)
      ch.close()
      assertEquals(f.runToList(), List(1, 2))
      assertEquals(f.runToList(), Nil, "a second run finds the channel drained and closed")

  test("fromChannel: waits for elements sent later (back-pressured by the reader)"):
    Async.blocking:
      val ch = BufferedChannel[Int](1)
      val writer = Future:
        for i <- 0 until 20 do ch.send(i)
        ch.close()
      assertEquals(Flow.fromChannel(ch).runToList(), (0 until 20).toList)
      writer.await

  test("fromChannel: a channel closed with error(cause) fails the flow with the cause itself"):
    val boom = Boom()
    val e = intercept[Boom]:
      Async.blocking:
        val ch = BufferedChannel[Int](10)
        ch.send(1)
        ch.error(boom)
        Flow.fromChannel(ch).runDrain()
    assert(e eq boom, e)

  test("fromSource: awaits its source again and again until stopped downstream"):
    val awaited = AtomicInteger()
    Async.blocking:
      val src = Future.successful(7)
      val f = Flow.fromSource(src).tap(_ => awaited.incrementAndGet(): Unit).take(3)
      assertEquals(f.runToList(), List(Success(7), Success(7), Success(7)))
    assertEquals(awaited.get, 3)

  test("fromFuture: the future's value once it completes; its failure as thrown"):
    val boom = Boom()
    Async.blocking:
      val p = Promise[Int]()
      val run = Future(Flow.fromFuture(p.future).map(_ + 1).runToList())
      p.success(41)
      assertEquals(Waits.within(run, "the run of fromFuture"), List(42))
      val e = intercept[Boom](Flow.fromFuture(Future.failed[Int](boom)).runDrain())
      assert(e eq boom, e)

  test("failed: fails each run with its exception, as is, and only when run"):
    val boom = Boom()
    val f = Flow.failed[Int](boom).map(_ + 1)
    Async.blocking:
      for _ <- 1 to 2 do
        val e = intercept[Boom](f.runDrain())
        assert(e eq boom, e)

  test("unfold: its elements until the first None; f not called before a run"):
    val calls = AtomicInteger()
    val f = Flow.unfold(1) { s =>
      calls.incrementAndGet()
      if s > 100 then None else Some((s.toString, s * 10))
    }
    assertEquals(calls.get, 0)
    Async.blocking:
      assertEquals(f.runToList(), List("1", "10", "100"))
      assertEquals(f.runToList(), List("1", "10", "100"))
    assertEquals(calls.get, 8)
    Async.blocking(assertEquals(Flow.unfold(0)(_ => Option.empty[(Int, Int)]).runToList(), Nil))

  test("iterate and repeat: endless, stopped downstream"):
    Async.blocking:
      assertEquals(Flow.iterate("a")(_ + "a").take(3).runToList(), List("a", "aa", "aaa"))
      assertEquals(Flow.repeat(4).take(1000).runToList(), List.fill(1000)(4))
      assertEquals(Flow.iterate(0)(_ + 1).drop(500).take(2).runToList(), List(500, 501))

  test("usingEmit: the body runs only in a terminal operation, on the caller's fiber"):
    val runs = AtomicInteger()
    val f = Flow.usingEmit[Thread] { emit =>
      runs.incrementAndGet()
      emit(Thread.currentThread())
      emit(Thread.currentThread())
    }
    assertEquals(runs.get, 0)
    Async.blocking:
      val caller = Thread.currentThread()
      assertEquals(f.runToList(), List(caller, caller))
      assertEquals(f.runToList().size, 2)
    assertEquals(runs.get, 2)

  test("usingEmit: the body's failure reaches the caller as it was thrown"):
    val boom = Boom()
    val e = intercept[Boom](Async.blocking(Flow.usingEmit[Int] { emit =>
      emit(1); throw boom
    }.runDrain()))
    assert(e eq boom, e)

  test("usingEmit: a failure downstream is thrown out of emit to the body, as is"):
    val boom = Boom()
    var fromEmit: Throwable | Null = null
    val e = intercept[Boom]:
      Async.blocking:
        Flow
          .usingEmit[Int] { emit =>
            try emit(1)
            catch
              case t: Throwable =>
                fromEmit = t
                throw t
          }
          .runForeach(_ => throw boom)
    assert(e eq boom, e)
    assert(fromEmit eq boom, fromEmit)

  test("Flow.concat and concat: one flow after the other, the next started after the first ended"):
    val events = scala.collection.mutable.ListBuffer.empty[String]
    def part(name: String, values: Int*): Flow[Int] =
      Flow.usingEmit[Int] { emit =>
        events += s"start $name"
        values.foreach(emit(_))
      }.onComplete(events += s"end $name")
    Async.blocking:
      assertEquals(Flow.concat(part("a", 1, 2), part("b"), part("c", 3)).runToList(), List(1, 2, 3))
      assertEquals(
        events.toList,
        List("start a", "end a", "start b", "end b", "start c", "end c")
      )
      assertEquals(Flow.concat[Int]().runToList(), Nil)
      assertEquals(Flow(1).concat(Flow(2, 3)).concat(Flow.empty).runToList(), List(1, 2, 3))

  test("concat: a failure of the first flow ends the run; the second never starts"):
    val boom = Boom()
    val second = FlowProbe(Seq(9))
    val e = intercept[Boom](
      Async.blocking(Flow(1).concat(Flow.failed(boom)).concat(second.flow).runDrain())
    )
    assert(e eq boom, e)
    assertEquals(second.runs.get, 0)

  test("tick: the value once per period, stopped downstream"):
    Async.blocking:
      assertEquals(Flow.tick(5.millis, "t").take(3).runToList(), List("t", "t", "t"))

  test("fromChannel of a closed, empty channel is empty"):
    Async.blocking:
      val ch = BufferedChannel[Int](1)
      ch.close()
      assertEquals(Flow.fromChannel(ch).runToList(), Nil)

  test("a source's failure midway keeps the elements before it and nothing after"):
    val boom = Boom()
    val seen = scala.collection.mutable.ListBuffer.empty[Int]
    val r = scala.util.Try:
      Async.blocking:
        Flow.unfold(0)(s => if s == 3 then throw boom else Some((s, s + 1))).runForeach(seen += _)
    assertEquals(r, Failure(boom))
    assertEquals(seen.toList, List(0, 1, 2))
