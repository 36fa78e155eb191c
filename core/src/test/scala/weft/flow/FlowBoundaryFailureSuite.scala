package weft.flow

import weft.*

/**
 * A failure on either side of any asynchronous boundary ends the run with that exact exception
 * (not wrapped), after the stages on the other side were interrupted (their `finally` ran) and
 * joined (no thread of the run left).
 */
class FlowBoundaryFailureSuite extends munit.FunSuite, FlowTesting:

  flowTest("an upstream failure while downstream waits: that exception, downstream interrupted"):
    for b <- FlowBoundaries.all do
      val boom = Boom(s"upstream of ${b.name}")
      val probe = Probe()
      val downstreamWaits = Promise[Unit]()
      val upstream = Flow.usingEmit[Int] { emit =>
        probe.here()
        emit(1)
        FlowWait.on(downstreamWaits, s"${b.name}: the element reached downstream")
        throw boom
      }
      assertThrowsExactly(boom, b.name):
        b.wrap(upstream).runForeach { _ =>
          probe.here()
          try
            downstreamWaits.tryComplete(scala.util.Success(())): Unit
            FlowWait.forever()
          finally probe.finallies.incrementAndGet(): Unit
        }
      assertEquals(probe.finallies.get, 1, s"${b.name}: downstream was not interrupted")
      probe.assertNoneAlive(b.name)

  flowTest("a downstream failure while upstream waits: that exception, upstream interrupted"):
    for b <- FlowBoundaries.all do
      val boom = Boom(s"downstream of ${b.name}")
      val probe = Probe()
      val upstreamWaits = Promise[Unit]()
      val upstream = Flow.usingEmit[Int] { emit =>
        probe.here()
        emit(1)
        try
          upstreamWaits.success(())
          FlowWait.forever()
        finally probe.finallies.incrementAndGet(): Unit
      }
      assertThrowsExactly(boom, b.name):
        b.wrap(upstream).runForeach { _ =>
          probe.here()
          FlowWait.on(upstreamWaits, s"${b.name}: upstream waiting")
          throw boom
        }
      assertEquals(probe.finallies.get, 1, s"${b.name}: upstream was not interrupted")
      probe.assertNoneAlive(b.name)

  flowTest("a failure before the first element crosses every boundary unwrapped"):
    for b <- FlowBoundaries.all do
      val boom = Boom(s"at once, ${b.name}")
      assertThrowsExactly(boom, b.name)(b.wrap(Flow.failed(boom)).runDrain())

  flowTest("a failure downstream of an endless busy upstream stops it"):
    for b <- FlowBoundaries.all.filterNot(_.name == "debounce") do
      val boom = Boom(s"downstream of ${b.name}")
      val probe = Probe()
      val upstream = Flow.usingEmit[Int] { emit =>
        probe.here()
        try
          var i = 0
          while true do
            emit(i)
            i += 1
        finally probe.finallies.incrementAndGet(): Unit
      }
      var seen = 0
      assertThrowsExactly(boom, b.name):
        b.wrap(upstream).runForeach { _ =>
          seen += 1
          if seen == 10 then throw boom
        }
      assertEquals(probe.finallies.get, 1, s"${b.name}: upstream's finally")
      probe.assertNoneAlive(b.name)

  flowTest("the failure of one side of a two-sided boundary stops the other side"):
    val sides: List[(String, (Flow[Int], Flow[Int]) => Flow[Int])] = List(
      "merge" -> ((a, b) => a.merge(b)),
      "zip" -> ((a, b) => a.zip(b).map(_._1)),
      "zip, reversed" -> ((a, b) => b.zip(a).map(_._1)),
      "interleave" -> ((a, b) => a.interleave(b)),
      "interleave, reversed" -> ((a, b) => b.interleave(a))
    )
    for (name, op) <- sides do
      val boom = Boom(name)
      val probe = Probe()
      val endless = Flow.usingEmit[Int] { emit =>
        probe.here()
        try while true do emit(0)
        finally probe.finallies.incrementAndGet(): Unit
      }
      val failing = Flow.usingEmit[Int] { emit =>
        emit(1)
        emit(2)
        throw boom
      }
      assertThrowsExactly(boom, name)(op(failing, endless).runDrain())
      assert(probe.finallies.get == probe.threadCount, s"$name: the endless side's finally")
      probe.assertNoneAlive(name)
