package weft.flow

import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import scala.jdk.CollectionConverters.*
import weft.*
import weft.channels.BufferedChannel

/**
 * `mapPar` (results in the order of their elements) and `mapParUnordered` (results as they are
 * ready): orders forced with promises, the bound on concurrent calls, failures, bad arguments.
 */
class FlowMapParSuite extends munit.FunSuite, FlowTesting:

  /** Calls of `f` inside it at once, and the most seen. */
  final class Concurrency:
    val inside = AtomicInteger()
    val most = AtomicInteger()
    def enter(): Unit = most.accumulateAndGet(inside.incrementAndGet(), math.max): Unit
    def leave(): Unit = inside.decrementAndGet(): Unit

  /** A permutation of `0 until n`, fixed by `seed`. */
  def shuffled(n: Int, seed: Int): List[Int] = scala.util.Random(seed).shuffle((0 until n).toList)

  flowTest("mapPar keeps the elements' order when they complete in any order"):
    // Every call waits for its own promise; the test completes them in a shuffled order once
    // all have started, so the results are ready in that order.
    val n = 8
    for seed <- 1 to 4 do
      val release = Vector.fill(n)(Promise[Unit]())
      val started = AtomicInteger()
      val all = Promise[Unit]()
      val run = Future:
        Flow.range(0, n).mapPar(n) { i =>
          if started.incrementAndGet() == n then all.success(())
          FlowWait.on(release(i), s"element $i released")
          i * 10
        }.runToList()
      FlowWait.on(all, "every call started")
      for i <- shuffled(n, seed) do release(i).success(())
      assertEquals(outcomeOf(run, "mapPar").get, (0 until n).map(_ * 10).toList, s"seed $seed")

  flowTest("mapPar keeps the order under random per-element delays"):
    val rnd = scala.util.Random(7)
    val delays = Vector.fill(300)(rnd.nextInt(3))
    val got = Flow.range(0, 300).mapPar(6) { i =>
      for _ <- 0 until delays(i) do weft.runtime.Fiber.yieldNow()
      if delays(i) == 2 then sleep(0)
      -i
    }.runToList()
    assertEquals(got, (0 until 300).map(-_).toList)

  flowTest("mapParUnordered emits in completion order"):
    val n = 8
    for seed <- 1 to 4 do
      val release = Vector.fill(n)(Promise[Unit]())
      val started = AtomicInteger()
      val all = Promise[Unit]()
      val got = BufferedChannel[Int](n)
      val run = Future:
        Flow.range(0, n).mapParUnordered(n) { i =>
          if started.incrementAndGet() == n then all.success(())
          FlowWait.on(release(i), s"element $i released")
          i
        }.runForeach(i => got.send(i))
      FlowWait.on(all, "every call started")
      // one at a time: the next is released once the previous one came out
      val order = shuffled(n, seed)
      val seen =
        for i <- order yield
          release(i).success(())
          got.read().get
      assertEquals(seen, order, s"seed $seed")
      assert(outcomeOf(run, "mapParUnordered").isSuccess)

  for (name, op) <- Seq[(String, (Flow[Int], Int, Int => Async ?=> Int) => Flow[Int])](
      "mapPar" -> ((f, p, g) => f.mapPar(p)(g)),
      "mapParUnordered" -> ((f, p, g) => f.mapParUnordered(p)(g))
    )
  do
    flowTest(s"$name: at most parallelism calls at once, and that many are reached"):
      for p <- Seq(1, 3, 8) do
        val c = Concurrency()
        val got = op(
          Flow.range(0, 200),
          p,
          { i =>
            c.enter()
            try
              weft.runtime.Fiber.yieldNow()
              sleep(0)
              i
            finally c.leave()
          }
        ).runToList()
        assertEquals(got.sorted, (0 until 200).toList)
        assert(c.most.get <= p, s"$name($p): ${c.most.get} calls at once")
        if p == 1 then assertEquals(c.most.get, 1)

    flowTest(s"$name: parallelism calls do run at once"):
      // each call waits until all `p` have started: fewer at once would never get there
      val p = 4
      val started = AtomicInteger()
      val all = Promise[Unit]()
      val got = op(
        Flow.range(0, p),
        p,
        { i =>
          if started.incrementAndGet() == p then all.success(())
          FlowWait.on(all, s"$p calls running at once")
          i
        }
      ).runToList()
      assertEquals(got.sorted, (0 until p).toList)

    flowTest(s"$name: a failing call fails the run with its exception, at once"):
      // element 0 never finishes by itself; element 1 fails: the run must not wait for 0
      val boom = Boom(name)
      val probe = Probe()
      val entered = Promise[Unit]()
      assertThrowsExactly(boom, name):
        op(
          Flow.range(0, 100),
          4,
          { i =>
            probe.here()
            if i == 0 then
              try
                entered.success(())
                FlowWait.forever()
              finally probe.finallies.incrementAndGet(): Unit
            else if i == 1 then
              FlowWait.on(entered, "element 0 started")
              throw boom
            else i
          }
        ).runDrain()
      assertEquals(probe.finallies.get, 1, "the slow call was not interrupted")
      probe.assertNoneAlive(name)

    flowTest(s"$name: results downstream, with a take that ends the run early"):
      val probe = Probe()
      val got = op(
        Flow.iterate(0)(_ + 1),
        3,
        { i =>
          probe.here(); i
        }
      ).take(20).runToList()
      assertEquals(got.size, 20)
      assertEquals(got.distinct.size, 20)
      probe.assertNoneAlive(s"$name after take")

    test(s"$name: a parallelism below 1 is refused when the operator is called"):
      val e = intercept[IllegalArgumentException](op(Flow(1), 0, i => i))
      assertEquals(e.getMessage, s"$name: parallelism must be >= 1, was 0")

  flowTest("mapPar: at most parallelism finished results wait for a slow earlier one"):
    // Element 0 is held; the later ones finish at once and must wait for it to be emitted.
    // `parallelism` of them may wait, so at most 1 + parallelism calls have started.
    for p <- Seq(1, 2, 4) do
      val started = ConcurrentLinkedQueue[Int]()
      val hold = Promise[Unit]()
      val run = Future:
        Flow.range(0, 100).mapPar(p) { i =>
          started.add(i)
          if i == 0 then FlowWait.on(hold, "element 0 released")
          i
        }.runDrain()
      val n = FlowWait.settle(started.size, s"mapPar($p): calls started")
      hold.success(())
      assert(outcomeOf(run, "mapPar").isSuccess)
      assert(n <= 1 + p, s"mapPar($p): ${n - 1} results waited for element 0: ${started.asScala}")

  flowTest("mapPar on both sides of the order: upstream order, not completion order"):
    val got = Flow(3, 1, 2).mapPar(3)(i =>
      sleep(i.toLong); i
    ).runToList()
    assertEquals(got, List(3, 1, 2))
