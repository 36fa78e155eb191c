package weft.flow

import java.util.concurrent.atomic.AtomicInteger
import weft.*

/** `buffer(capacity)`: the same elements, in order, with upstream up to `capacity` ahead. */
class FlowBufferSuite extends munit.FunSuite, FlowTesting:

  flowTest("the same elements, in order, whatever the capacity"):
    for c <- Seq(0, 1, 2, 16, 1000) do
      assertEquals(Flow.range(0, 500).buffer(c).runToList(), (0 until 500).toList, s"buffer($c)")
    assertEquals(Flow.empty[Int].buffer(4).runToList(), Nil)
    assertEquals(Flow(1).buffer(0).buffer(0).runToList(), List(1))

  flowTest("upstream hands over `capacity` elements while downstream holds the first"):
    // The producer would wait in its last emit if the boundary held fewer.
    val c = 5
    val handedOver = Promise[Unit]()
    val upstream = Flow.usingEmit[Int]: emit =>
      for i <- 0 to c do emit(i)
      handedOver.success(())
    val got = upstream.buffer(c).map { i =>
      if i == 0 then FlowWait.on(handedOver, s"$c elements handed over with nobody reading")
      i
    }.runToList()
    assertEquals(got, (0 to c).toList)

  flowTest("upstream and downstream run on fibers of their own"):
    val caller = Thread.currentThread()
    var up: Thread | Null = null
    var down: Thread | Null = null
    Flow(1)
      .tap(_ => up = Thread.currentThread())
      .buffer(1)
      .tap(_ => down = Thread.currentThread())
      .runDrain()
    assert(up ne caller, "upstream ran on the caller's fiber")
    assert(down ne up, "downstream ran on the upstream's fiber")

  flowTest("a take downstream stops an endless upstream and joins it"):
    val probe = Probe()
    val got = Flow.usingEmit[Int] { emit =>
      probe.here()
      try
        var i = 0
        while true do
          emit(i)
          i += 1
      finally probe.finallies.incrementAndGet(): Unit
    }.buffer(3).take(10).runToList()
    assertEquals(got, (0 until 10).toList)
    assertEquals(probe.finallies.get, 1, "the upstream's finally did not run before the return")
    probe.assertNoneAlive("after take")

  flowTest("a flow with a buffer runs again from the start"):
    val runs = AtomicInteger()
    val f = Flow.usingEmit[Int] { emit =>
      runs.incrementAndGet()
      emit(1); emit(2)
    }.buffer(2)
    assertEquals(f.runToList(), List(1, 2))
    assertEquals(f.runToList(), List(1, 2))
    assertEquals(runs.get, 2)

  flowTest("an upstream failure after some elements: those elements, then the failure"):
    val boom = Boom("upstream")
    val got = List.newBuilder[Int]
    assertThrowsExactly(boom, "buffer"):
      Flow.usingEmit[Int] { emit =>
        emit(1); emit(2); throw boom
      }.buffer(4).runForeach(got += _)
    assertEquals(got.result(), List(1, 2))

  test("a negative capacity is refused when the operator is called"):
    val e = intercept[IllegalArgumentException](Flow(1).buffer(-1))
    assertEquals(e.getMessage, "buffer: capacity must be >= 0, was -1")
